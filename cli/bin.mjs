#!/usr/bin/env node
// The installed command. The package ships its TypeScript sources: tsx's loader compiles
// them (and a user's svc-conformance.config.ts) as they are imported.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
await main();
