// defineConfig for a config file that is loaded as CommonJS (a .ts or .js config in a
// project whose package.json has no "type": "module"): the identity, typed through
// cli/index.ts (the "types" condition of package.json's exports).
'use strict';
exports.defineConfig = (config) => config;
