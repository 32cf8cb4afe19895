// Regenerate docs/FORMATS.md from the layouts: `npm run docs`.

import { formatsDocument } from "../src/cli/formats-doc.js";
import { writeOutput } from "../src/cli/output-file.js";

writeOutput(new URL("../docs/FORMATS.md", import.meta.url), formatsDocument());
