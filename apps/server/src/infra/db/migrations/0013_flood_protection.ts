/**
 * Standard of flood protection per asset (issue 20 item 2): the return period (years) below which river, rainfall and
 * coastal floods do no damage at the site. Null = the default of the place (engine vulnerability/protection.ts).
 */
export const statements = [`alter table assets add column flood_protection double precision`];
