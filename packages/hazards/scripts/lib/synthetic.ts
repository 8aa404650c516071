/** The synthetic-track generator lives in src/events/synthetic-tracks.ts (shared with the portfolio event set). */
export * from '../../src/events/synthetic-tracks.js';
