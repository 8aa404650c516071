import type { ColumnType, Generated } from 'kysely';

/**
 * FAQ help centre (spec 001 §2.8, §3.13): keyword categories with child keywords, items with sanitised HTML answers
 * and image attachments, and a full-text index over title (weight A) and answer text (weight B).
 * The tsvector is a generated column, so inserts and updates keep it current on PGlite and PostgreSQL alike.
 */
export const statements = [
  `create table faq_keywords (
    id serial primary key,
    name text not null unique,
    parent_id integer references faq_keywords(id) on delete cascade,
    position integer not null default 0,
    updated_at timestamptz not null default now()
  )`,
  `create index faq_keywords_parent_idx on faq_keywords (parent_id, position)`,
  `create table faq_items (
    id serial primary key,
    key text not null unique,
    title text not null,
    content text not null,
    content_text text not null,
    attachments jsonb not null default '[]'::jsonb,
    position integer not null default 0,
    source text not null default 'builtin',
    search tsvector generated always as (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
      setweight(to_tsvector('english', coalesce(content_text, '')), 'B')
    ) stored,
    updated_at timestamptz not null default now()
  )`,
  `create index faq_items_search_idx on faq_items using gin (search)`,
  `create table faq_item_keywords (
    item_id integer not null references faq_items(id) on delete cascade,
    keyword_id integer not null references faq_keywords(id) on delete cascade,
    primary key (item_id, keyword_id)
  )`,
  `create index faq_item_keywords_keyword_idx on faq_item_keywords (keyword_id)`,
];

/** Kysely types of the tables above (Database extends this in db/schema.ts). */
export interface FaqTables {
  faq_keywords: {
    id: Generated<number>;
    name: string;
    parent_id: number | null;
    position: Generated<number>;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  faq_items: {
    id: Generated<number>;
    key: string;
    title: string;
    content: string;
    content_text: string;
    attachments: ColumnType<string[], string, string>;
    position: Generated<number>;
    source: Generated<string>;
    /** Generated column: never written. */
    search: ColumnType<string, never, never>;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  faq_item_keywords: { item_id: number; keyword_id: number };
}
