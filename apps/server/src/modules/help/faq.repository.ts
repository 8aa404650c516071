import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';

/** The columns of an item the FAQ answers are built from. */
const ITEM_COLUMNS = ['i.id', 'i.key', 'i.title', 'i.content', 'i.attachments', 'i.position'] as const;

/** The stored values of one FAQ item (already sanitised by the service). */
export interface FaqItemValues {
  key: string;
  title: string;
  content: string;
  content_text: string;
  attachments: string;
  position: number;
  source: string;
  updated_at: Date;
}

/** SQL of the FAQ help centre: keywords, items, their links and the full-text search. No rules here. */
export class FaqRepository {
  constructor(private readonly db: DB) {}

  /** Runs `fn` in one transaction, with a repository on it. */
  transaction<T>(fn: (repo: FaqRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((tx) => fn(new FaqRepository(tx)));
  }

  keywordsInOrder() {
    return this.db.selectFrom('faq_keywords').select(['id', 'name', 'parent_id']).orderBy('position').orderBy('id').execute();
  }

  /** Keywords whose lower-cased name is one of `namesLower`. */
  keywordIdsByLowerName(namesLower: string[]) {
    return this.db
      .selectFrom('faq_keywords')
      .select(['id'])
      .where(sql<string>`lower(name)`, 'in', namesLower)
      .execute();
  }

  childKeywordIds(parentIds: number[]) {
    return this.db.selectFrom('faq_keywords').select('id').where('parent_id', 'in', parentIds).execute();
  }

  /** Items filed under any of the keyword ids, in content order. */
  itemsWithKeywords(keywordIds: number[]) {
    return this.db
      .selectFrom('faq_items as i')
      .select([...ITEM_COLUMNS])
      .where((eb) =>
        eb.exists(eb.selectFrom('faq_item_keywords as ik').select('ik.item_id').whereRef('ik.item_id', '=', 'i.id').where('ik.keyword_id', 'in', keywordIds)),
      )
      .orderBy('i.position')
      .orderBy('i.id')
      .execute();
  }

  /** Items matching the to_tsquery text `q`, ranked (ts_rank_cd, title weighted above answer text). */
  searchItems(q: string, limit: number) {
    return this.db
      .selectFrom('faq_items as i')
      .select([...ITEM_COLUMNS])
      .select(sql<number>`ts_rank_cd(i.search, to_tsquery('english', ${q}), 1)`.as('rank'))
      .where(sql<boolean>`i.search @@ to_tsquery('english', ${q})`)
      .orderBy('rank', 'desc')
      .orderBy('i.position')
      .orderBy('i.id')
      .limit(limit)
      .execute();
  }

  /** The keyword names of the items, in keyword order. */
  itemKeywordNames(itemIds: number[]) {
    return this.db
      .selectFrom('faq_item_keywords as ik')
      .innerJoin('faq_keywords as k', 'k.id', 'ik.keyword_id')
      .select(['ik.item_id', 'k.name'])
      .where('ik.item_id', 'in', itemIds)
      .orderBy('k.position')
      .execute();
  }

  /** Inserts or updates an item by its key; answers its id. */
  async upsertItem(values: FaqItemValues): Promise<number> {
    const row = await this.db
      .insertInto('faq_items')
      .values(values)
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            title: values.title,
            content: values.content,
            content_text: values.content_text,
            attachments: values.attachments,
            position: values.position,
            source: values.source,
            updated_at: values.updated_at,
          }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  keywordsByName(names: string[]) {
    return this.db.selectFrom('faq_keywords').select(['id', 'name']).where('name', 'in', names).execute();
  }

  /** Replaces the item's keyword links. */
  async setItemKeywords(itemId: number, keywordIds: number[]): Promise<void> {
    await this.db.deleteFrom('faq_item_keywords').where('item_id', '=', itemId).execute();
    await this.db
      .insertInto('faq_item_keywords')
      .values(keywordIds.map((keyword_id) => ({ item_id: itemId, keyword_id })))
      .execute();
  }

  /** Inserts or updates a keyword by name (position from the inserted values); answers its id. */
  async upsertKeyword(name: string, parentId: number | null, position: number): Promise<number> {
    const row = await this.db
      .insertInto('faq_keywords')
      .values({ name, parent_id: parentId, position })
      .onConflict((oc) => oc.column('name').doUpdateSet({ parent_id: parentId, position: sql`excluded.position`, updated_at: new Date() }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Inserts or updates a child keyword by name (no id returned). */
  async upsertChildKeyword(name: string, parentId: number, position: number): Promise<void> {
    await this.db
      .insertInto('faq_keywords')
      .values({ name, parent_id: parentId, position })
      .onConflict((oc) => oc.column('name').doUpdateSet({ parent_id: parentId, position: sql`excluded.position`, updated_at: new Date() }))
      .execute();
  }

  async deleteKeywordsNotIn(names: string[]): Promise<void> {
    await this.db.deleteFrom('faq_keywords').where('name', 'not in', names).execute();
  }

  async deleteItemsOfSourceNotIn(source: string, keys: string[]): Promise<void> {
    await this.db.deleteFrom('faq_items').where('source', '=', source).where('key', 'not in', keys).execute();
  }

  /** Everything the built-in content is compared with: keywords, items of `source` and links. */
  stored(source: string) {
    return Promise.all([
      this.db.selectFrom('faq_keywords').select(['id', 'name', 'parent_id', 'position']).orderBy('position').execute(),
      this.db
        .selectFrom('faq_items')
        .select(['id', 'key', 'title', 'content', 'attachments', 'position'])
        .where('source', '=', source)
        .orderBy('position')
        .execute(),
      this.db.selectFrom('faq_item_keywords').select(['item_id', 'keyword_id']).execute(),
    ]);
  }
}
