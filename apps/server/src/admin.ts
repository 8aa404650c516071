/**
 * Administration commands: `npm run admin -- <command> [options]`.
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL). With PGlite, stop the server first:
 * the embedded database is opened by one process at a time.
 */
import { parseArgs } from 'node:util';
import { MODULES, TIERS, type ModuleKey, type Tier } from '@crp/contracts';
import { loadConfig } from './config.js';
import { openDatabase } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { BackupError, backupDatabase, restoreDatabase } from './infra/db/backup.js';
import { FILE_STORE_SUBDIR } from './infra/file-store.js';
import { join } from 'node:path';
import { normaliseCompanyCode } from './lib/crypto.js';
import { NotificationService } from './modules/accounts/notification.service.js';
import { NotificationRepository } from './modules/accounts/notification.repository.js';
import { tierColumns } from './modules/accounts/tier.service.js';
import { grantTier } from './modules/upgrades/upgrade-request.service.js';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  companies                                   list companies with tier, asset limit and member count
  set-tier --company CODE --tier TIER [--assets N] [--modules m1,m2]
                                              set a company's tier (${TIERS.join(', ')}), asset limit and modules (${MODULES.join(', ')})
  upgrade-requests                            list pending upgrade requests (asked for from a locked panel in the app)
  grant-tier --company CODE [--tier TIER]     grant a company a tier (default: the tier of its pending request): sets
                                              the tier's sections and modules, marks the request granted, tells the members
  approve --company CODE --username NAME      approve a pending member
  reset-2fa --company CODE --username NAME    turn off a user's two-factor authentication (lost phone)
  set-operator --company CODE --username NAME [--off]
                                              make a user an operator of this installation (may register published
                                              hazard datasets on the operator page), or no longer one with --off
  outbox [--limit N]                          print e-mails stored in the local outbox (when no SMTP_URL is set)
  backup FILE                                 write the whole database and the file store (reports, exports) to FILE
                                              (gzip'd JSON lines, restorable into PGlite or PostgreSQL)
  restore FILE [--force]                      load a backup into this database; refuses a database that holds data
                                              unless --force (its data is then replaced)

With the embedded database (no DATABASE_URL) stop the server first: PGlite is opened by one process at a time.
`;

class UsageError extends Error {}

// eslint-disable-next-line max-lines-per-function -- the admin command line: one switch over the subcommands, each a few lines; not on the request path
async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      company: { type: 'string' },
      tier: { type: 'string' },
      assets: { type: 'string' },
      modules: { type: 'string' },
      username: { type: 'string' },
      limit: { type: 'string' },
      force: { type: 'boolean' },
      off: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  if (command === 'backup' || command === 'restore') {
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError(`${command} needs one FILE`);
    if (values.force && command === 'backup') throw new UsageError('--force applies to restore only');
    const fileDir = join(config.DATA_DIR, FILE_STORE_SUBDIR);
    if (!config.DATABASE_URL) console.error(`PGlite database in ${config.DATA_DIR}: the server must be stopped while ${command} runs.`);
    const database = await openDatabase(config);
    try {
      if (command === 'backup') {
        const r = await backupDatabase(database.db, { file, fileDir, source: database.kind });
        console.log(
          `backup written to ${r.file}: ${r.tables.length} tables, ${r.rows} rows, ${r.files} stored files, ${(r.bytes / 1_048_576).toFixed(2)} MiB in ${(r.ms / 1000).toFixed(1)} s`,
        );
      } else {
        const r = await restoreDatabase(database.db, { file, fileDir, force: values.force === true, filesInDatabase: !!config.DATABASE_URL });
        console.log(
          `restored ${r.tables} tables, ${r.rows} rows and ${r.files} stored files in ${(r.ms / 1000).toFixed(1)} s; database at migration ${r.migrations[r.migrations.length - 1]}`,
        );
      }
    } finally {
      await database.close();
    }
    return;
  }
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const database = await openDatabase(config);
  const db = database.db;
  try {
    await migrateToLatest(db);
    const company = async () => {
      if (!values.company) throw new UsageError('--company CODE is required');
      const c = await db.selectFrom('companies').selectAll().where('code', '=', normaliseCompanyCode(values.company)).executeTakeFirst();
      if (!c) throw new UsageError(`no company with code ${values.company}`);
      return c;
    };
    const user = async (companyId: number) => {
      if (!values.username) throw new UsageError('--username NAME is required');
      const u = await db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('username_lower', '=', values.username.toLowerCase())
        .executeTakeFirst();
      if (!u) throw new UsageError(`no user ${values.username} in that company`);
      return u;
    };

    switch (command) {
      case 'companies': {
        const rows = await db
          .selectFrom('companies as c')
          .leftJoin('users as u', 'u.company_id', 'c.id')
          .select(['c.code', 'c.name', 'c.tier', 'c.assets_allowed', 'c.allowed_modules', (eb) => eb.fn.count<number>('u.id').as('members')])
          .groupBy(['c.id'])
          .orderBy('c.id')
          .execute();
        console.table(rows.map((r) => ({ ...r, allowed_modules: (r.allowed_modules as string[]).join(','), members: Number(r.members) })));
        break;
      }
      case 'set-tier': {
        const c = await company();
        const tier = values.tier as Tier;
        if (!TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
        const assets = values.assets === undefined ? undefined : Number(values.assets);
        if (assets !== undefined && (!Number.isInteger(assets) || assets < 0)) throw new UsageError('--assets must be a whole number of 0 or more');
        const modules = values.modules
          ?.split(',')
          .map((m) => m.trim())
          .filter(Boolean) as ModuleKey[] | undefined;
        const unknown = modules?.filter((m) => !MODULES.includes(m));
        if (unknown?.length) throw new UsageError(`unknown module(s): ${unknown.join(', ')}; choose from ${MODULES.join(', ')}`);
        const cols = tierColumns(tier, { ...(assets !== undefined ? { assets } : {}), ...(modules ? { modules } : {}) });
        await db.transaction().execute(async (tx) => {
          await tx.updateTable('companies').set(cols).where('id', '=', c.id).execute();
          const members = await tx.selectFrom('users').select('id').where('company_id', '=', c.id).where('status', '=', 'active').execute();
          await new NotificationService(new NotificationRepository(tx)).notify(
            members.map((m) => m.id),
            {
              title: 'Your plan changed',
              message: `Your company is now on the ${tier} tier (${cols.assets_allowed} assets).`,
              notification_type: 'info',
              link: null,
            },
            tx,
          );
          await tx
            .insertInto('audit_log')
            .values({
              company_id: c.id,
              user_id: null,
              action: 'tier.changed',
              detail: JSON.stringify({ from: c.tier, to: tier, assets_allowed: cols.assets_allowed, modules: JSON.parse(cols.allowed_modules) }),
              client: 'admin-cli',
            })
            .execute();
        });
        console.log(`${c.name} (${c.code}): tier ${tier}, ${cols.assets_allowed} assets, modules ${JSON.parse(cols.allowed_modules).join(', ')}`);
        break;
      }
      case 'upgrade-requests': {
        const rows = await db
          .selectFrom('upgrade_requests as r')
          .innerJoin('companies as c', 'c.id', 'r.company_id')
          .leftJoin('users as u', 'u.id', 'r.requested_by')
          .select(['r.id', 'c.code', 'c.name', 'r.tier_from', 'r.tier', 'u.username', 'r.message', 'r.created_at'])
          .where('r.status', '=', 'pending')
          .orderBy('r.created_at')
          .execute();
        if (!rows.length) console.log('(no pending upgrade requests)');
        else console.table(rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString().slice(0, 16) })));
        break;
      }
      case 'grant-tier': {
        const c = await company();
        const pending = await db
          .selectFrom('upgrade_requests')
          .select('tier')
          .where('company_id', '=', c.id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        const tier = (values.tier ?? pending?.tier) as Tier | undefined;
        if (!tier) throw new UsageError(`${c.code} has no pending upgrade request: name the tier with --tier (${TIERS.join(', ')})`);
        if (!TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
        const r = await grantTier(db, c.id, tier, 'admin-cli', 'admin-cli');
        console.log(
          `${c.name} (${c.code}): tier ${r.from} -> ${tier}${r.requestId !== null ? `; upgrade request #${r.requestId} granted` : ''}; its members were told`,
        );
        break;
      }
      case 'approve': {
        const c = await company();
        const u = await user(c.id);
        await db.updateTable('users').set({ status: 'active' }).where('id', '=', u.id).execute();
        console.log(`approved ${u.username} in ${c.name}`);
        break;
      }
      case 'reset-2fa': {
        const c = await company();
        const u = await user(c.id);
        await db
          .updateTable('users')
          .set({ twofa_method: null, totp_secret: null, totp_pending_secret: null, totp_last_step: null })
          .where('id', '=', u.id)
          .execute();
        await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', u.id).execute();
        await db.insertInto('audit_log').values({ company_id: c.id, user_id: u.id, action: '2fa.reset', detail: '{}', client: 'admin-cli' }).execute();
        console.log(`two-factor authentication turned off for ${u.username} in ${c.name}`);
        break;
      }
      case 'set-operator': {
        const c = await company();
        const u = await user(c.id);
        const on = values.off !== true;
        await db.updateTable('users').set({ is_operator: on }).where('id', '=', u.id).execute();
        await db
          .insertInto('audit_log')
          .values({ company_id: c.id, user_id: u.id, action: on ? 'operator.granted' : 'operator.revoked', detail: '{}', client: 'admin-cli' })
          .execute();
        console.log(`${u.username} in ${c.name} is ${on ? 'now' : 'no longer'} an operator of this installation`);
        break;
      }
      case 'outbox': {
        const limit = Number(values.limit ?? 20);
        const rows = await db.selectFrom('outbox_emails').selectAll().orderBy('id', 'desc').limit(limit).execute();
        for (const m of rows.reverse()) {
          console.log(
            `--- #${m.id} ${new Date(m.created_at).toISOString()} [${m.transport}/${m.status}] to ${m.to_address}\nSubject: ${m.subject}\n\n${m.text_body}\n`,
          );
        }
        if (!rows.length) console.log('(outbox is empty)');
        break;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof BackupError) {
    console.error(`error: ${err.message}`);
    process.exit(2);
  }
  if (err instanceof UsageError || (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`error: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
