"""Pictures of both games for the environments: plain text (``ansi``) and an RGB array drawn by
``halali.svg`` and rasterised by resvg (``rgb_array``)."""
