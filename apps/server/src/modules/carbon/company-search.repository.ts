import { sql, type Insertable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { ListedCompaniesTable } from '../../infra/db/schema.js';

/** What a company search asks for, already normalised by the service. */
export interface CompanyQuery {
  /** The term in upper case, for tickers and codes. */
  ticker: string;
  /** The normalised term, for names. */
  name: string;
  /** Whether names are searched (the term is long enough). */
  nameSearch: boolean;
  /** Prefix tsquery text of the words, or null. */
  tsquery: string | null;
  /** Only companies of this index (as the data spells it), or null. */
  index: string | null;
  limit: number;
}

/** SQL of the company search: the bundled list in `listed_companies` and its ranking. No rules here. */
export class CompanySearchRepository {
  constructor(private readonly db: DB) {}

  async sourceVersion(): Promise<string | undefined> {
    const current = await this.db.selectFrom('listed_companies_source').select('source_version').executeTakeFirst();
    return current?.source_version;
  }

  /** Replaces the list and its version in one transaction: readers never see half a list. */
  async replaceAll(rows: Insertable<ListedCompaniesTable>[], version: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('listed_companies').execute();
      for (let i = 0; i < rows.length; i += 500)
        await tx
          .insertInto('listed_companies')
          .values(rows.slice(i, i + 500))
          .execute();
      await tx.deleteFrom('listed_companies_source').execute();
      await tx.insertInto('listed_companies_source').values({ id: 1, source_version: version }).execute();
    });
  }

  /** Companies scoring above 0 for the query, best first: the stored record and its score. */
  search({ ticker: T, name: q, nameSearch, tsquery: tsq, index: only, limit }: CompanyQuery) {
    const tickerScore = sql<number>`case
      when upper(ticker) = ${T} or ${T} = any(select upper(c) from unnest(codes) c) then 1.0
      when ${T.length >= 2} and (upper(ticker) like ${T} || '%' or exists (select 1 from unnest(codes) c where upper(c) like ${T} || '%')) then 0.8 + 0.1 * ${T.length}::float / greatest(length(ticker), 1)
      else 0 end`;
    const nameScore = nameSearch
      ? sql<number>`case
          when name_norm = ${q} then 0.98
          when name_norm like ${q} || '%' then 0.85 + 0.1 * ${q.length}::float / greatest(length(name_norm), 1)
          when ${tsq}::text is not null and search @@ to_tsquery('simple', ${tsq}) then 0.7
          when word_similarity(${q}, name_norm) >= 0.45 then 0.3 + 0.3 * word_similarity(${q}, name_norm)
          else 0 end`
      : sql<number>`0`;

    return this.db
      .selectFrom('listed_companies')
      .select(['record', sql<number>`greatest(${tickerScore}, ${nameScore})`.as('score')])
      .$if(only !== null, (qb) => qb.where(sql<boolean>`indices @> array[${only}]::text[]`))
      .where(sql<boolean>`greatest(${tickerScore}, ${nameScore}) > 0`)
      .orderBy('score', 'desc')
      .orderBy('company_name')
      .limit(limit)
      .execute();
  }
}
