/**
 * How long a company's download links (exports, reports) last, 1-24 hours (issue 21 item 7): a company administrator
 * may shorten the 24-hour default.
 */
export const statements = [`alter table companies add column download_link_hours integer not null default 24 check (download_link_hours between 1 and 24)`];
