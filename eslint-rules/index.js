// The project's own lint rules, registered in eslint.config.js as the plugin "local".

import noImportCycle from './no-import-cycle.js';

export default {
  meta: { name: 'toolwire-local' },
  rules: { 'no-import-cycle': noImportCycle },
};
