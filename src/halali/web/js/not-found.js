// The page for an address the site does not know: the site's frame in the visitor's language, and
// the ways back.

import { initPage } from "./common.js";

await initPage();
