// Before `npm pack`: link each bundled dependency into this package's own
// node_modules/, so npm puts it in the tarball (which then installs with no
// registry and no cache). In the clients/ workspace they are hoisted to
// ../node_modules/, where npm pack does not look for them
// (https://github.com/npm/cli/issues/3466). After packing, `--remove` takes
// the links (and the folders left empty) away again.
import { existsSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const modules = join(root, "node_modules");
const bundled = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bundleDependencies ?? [];

function removeIfEmpty(folder) {
  try {
    rmdirSync(folder);
  } catch {
    // not empty, or not there
  }
}

for (const name of bundled) {
  const link = join(modules, name);
  const hoisted = join(root, "..", "node_modules", name);
  if (process.argv.includes("--remove")) {
    if (existsSync(link) && lstatSync(link).isSymbolicLink()) rmSync(link);
    removeIfEmpty(dirname(link));
  } else if (!existsSync(link)) {
    if (!existsSync(hoisted)) throw new Error(`${name} is not installed: run npm ci in clients/`);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), hoisted), link, "dir");
  }
}
if (process.argv.includes("--remove")) removeIfEmpty(modules);
