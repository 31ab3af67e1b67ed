"""Computer players. A bot sees a view (face-down tiles unknown), never a state with secrets."""
