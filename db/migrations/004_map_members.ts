import type { Knex } from 'knex';

// Collaborators: editors (when the map has collaborate on) and viewers (when visibility is select).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('map_members', (t) => {
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.primary(['map_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw("alter table map_members add constraint map_members_role_check check (role in ('editor', 'viewer'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('map_members');
}
