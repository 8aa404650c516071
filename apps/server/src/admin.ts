/**
 * Administration commands: `npm run admin -- <command> [options]`.
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL). With PGlite, stop the server first:
 * the embedded database is opened by one process at a time.
 */
import { parseArgs } from 'node:util';
import { MODULES, TIERS, type ModuleKey, type Tier } from '@crp/contracts';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { normaliseCompanyCode } from './lib/crypto.js';
import { NotificationService } from './services/notification.service.js';
import { tierColumns } from './services/tier.service.js';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  companies                                   list companies with tier, asset limit and member count
  set-tier --company CODE --tier TIER [--assets N] [--modules m1,m2]
                                              set a company's tier (${TIERS.join(', ')}), asset limit and modules (${MODULES.join(', ')})
  approve --company CODE --username NAME      approve a pending member
  reset-2fa --company CODE --username NAME    turn off a user's two-factor authentication (lost phone)
  outbox [--limit N]                          print e-mails stored in the local outbox (when no SMTP_URL is set)
`;

class UsageError extends Error {}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      company: { type: 'string' },
      tier: { type: 'string' },
      assets: { type: 'string' },
      modules: { type: 'string' },
      username: { type: 'string' },
      limit: { type: 'string' },
    },
    strict: true,
  });
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
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
      const u = await db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('username_lower', '=', values.username.toLowerCase()).executeTakeFirst();
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
        const modules = values.modules?.split(',').map((m) => m.trim()).filter(Boolean) as ModuleKey[] | undefined;
        const unknown = modules?.filter((m) => !MODULES.includes(m));
        if (unknown?.length) throw new UsageError(`unknown module(s): ${unknown.join(', ')}; choose from ${MODULES.join(', ')}`);
        const cols = tierColumns(tier, { ...(assets !== undefined ? { assets } : {}), ...(modules ? { modules } : {}) });
        await db.transaction().execute(async (tx) => {
          await tx.updateTable('companies').set(cols).where('id', '=', c.id).execute();
          const members = await tx.selectFrom('users').select('id').where('company_id', '=', c.id).where('status', '=', 'active').execute();
          await new NotificationService(tx).notify(
            members.map((m) => m.id),
            { title: 'Your plan changed', message: `Your company is now on the ${tier} tier (${cols.assets_allowed} assets).`, notification_type: 'info', link: null },
            tx,
          );
          await tx.insertInto('audit_log').values({ company_id: c.id, user_id: null, action: 'tier.changed', detail: JSON.stringify({ from: c.tier, to: tier, assets_allowed: cols.assets_allowed, modules: JSON.parse(cols.allowed_modules) }), client: 'admin-cli' }).execute();
        });
        console.log(`${c.name} (${c.code}): tier ${tier}, ${cols.assets_allowed} assets, modules ${JSON.parse(cols.allowed_modules).join(', ')}`);
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
        await db.updateTable('users').set({ twofa_method: null, totp_secret: null, totp_pending_secret: null, totp_last_step: null }).where('id', '=', u.id).execute();
        await db.insertInto('audit_log').values({ company_id: c.id, user_id: u.id, action: '2fa.reset', detail: '{}', client: 'admin-cli' }).execute();
        console.log(`two-factor authentication turned off for ${u.username} in ${c.name}`);
        break;
      }
      case 'outbox': {
        const limit = Number(values.limit ?? 20);
        const rows = await db.selectFrom('outbox_emails').selectAll().orderBy('id', 'desc').limit(limit).execute();
        for (const m of rows.reverse()) {
          console.log(`--- #${m.id} ${new Date(m.created_at).toISOString()} [${m.transport}/${m.status}] to ${m.to_address}\nSubject: ${m.subject}\n\n${m.text_body}\n`);
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
  if (err instanceof UsageError || (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`error: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
