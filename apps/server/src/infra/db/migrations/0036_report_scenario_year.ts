/**
 * The slide report at the scenario and year the user chose (issue 37 item 7): it was made at the user's saved dashboard
 * defaults (SSP2-4.5, 2050 for most), whatever the dashboard showed. Null: a report requested without them keeps that
 * behaviour (the saved defaults, else the project's).
 */
export const statements = [
  `alter table reports add column scenario text check (scenario in ('26', '45', '85'))`,
  `alter table reports add column year integer check (year between 2020 and 2100)`,
];
