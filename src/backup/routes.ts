// POST /api/admin/backup: the serving process's own dump of its embedded database (PGlite
// belongs to one process, so no other may read its directory while it serves). PostgreSQL
// installations back up with `metaserver backup` (pg_dump), which is consistent while serving.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../http/api-error.ts';
import { responses } from '../http/schemas.ts';
import type { RouteHandler } from '../http/route-types.ts';

/** What the backup takes, handed over by the composition root: the dump of the embedded database, none with PostgreSQL. */
export interface BackupRouteDeps {
  dumpDatabase?: () => Promise<Buffer>;
}

const Backup = {
  tags: ['operations'],
  summary: 'A backup of the embedded PGlite database, taken by this serving process; restore it with `metaserver restore FILE` (organiser)',
  response: responses({
    200: {
      description: 'PGlite dump of the data directory (gzipped tar)',
      content: { 'application/gzip': { schema: Type.String({ format: 'binary' }) } },
    },
  }),
};

function backupHandler({ dumpDatabase }: BackupRouteDeps): RouteHandler<typeof Backup> {
  return async (_request, reply) => {
    if (!dumpDatabase) {
      throw new ApiError(
        'bad_request',
        'this installation uses PostgreSQL: back it up with `metaserver backup --out FILE` (pg_dump), which is consistent while it serves',
      );
    }
    const bytes = await dumpDatabase();
    const name = `metaserver-backup-${new Date().toISOString().replaceAll(/[:.]/g, '-')}.tar.gz`;
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(bytes as never); // bytes, sent as they are (the schema documents them)
  };
}

export function backupRoutes(deps: BackupRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post('/admin/backup', { schema: Backup, config: { access: 'admin' } }, backupHandler(deps));
  };
}
