// Regenerate docs/FORMATS.md from the layouts: `npm run docs`.
import { writeFileSync } from "node:fs";
import { formatsDocument } from "../src/cli/formats-doc.js";

writeFileSync(new URL("../docs/FORMATS.md", import.meta.url), formatsDocument());
