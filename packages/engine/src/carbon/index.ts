/** @crp/engine/carbon: financed emissions and carbon metrics of a financial portfolio (PCAF / TCFD). Pure, no I/O. */
export * from './factors.js';
export * from './compute.js';
