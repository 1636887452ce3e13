// Loaded before every unit test file (scripts/test.mjs runs node --test with --require of this file): the tests call
// src/core directly, outside any engine, and such calls reach the default Host (the engines take their own).
// A single file by hand: node --require ./out/test/unit/host-setup.js --test out/test/unit/<dir>/<file>.test.js
import { installDiskHost } from '../../src/host/disk';

installDiskHost();
