import type { FastifyInstance } from 'fastify';
import moderationAdminRoutes from '../moderation/routes';
import userRoutes from './routes';

export { applyUserAction, BAN_REASON_REQUIRED, UserActionError } from './service';

/** Users (list, type-ahead, ban, roles) and the moderation the admin screens complete (src/admin/moderation). */
export async function usersAndModeration(app: FastifyInstance): Promise<void> {
  await app.register(userRoutes);
  await app.register(moderationAdminRoutes);
}
