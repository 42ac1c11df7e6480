// Registers src/resolve-hook.js (usable as `node --import ./src/register-hook.js`, and imported by
// src/main.js before the loader is).
import { register } from 'node:module';

register('./resolve-hook.js', import.meta.url);
