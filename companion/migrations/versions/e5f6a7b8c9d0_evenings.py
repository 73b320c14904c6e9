"""evenings: a table's evening of games and the payments marked in it

An evening holds its table's games ``first_game`` to ``last_game`` (set when
it closes), so ``games`` is left as it is; the payments marked paid are
``payments`` rows. Each table that has games gets its first evening, open,
holding all of them (it opened with its first game).

Revision ID: e5f6a7b8c9d0
Revises: e6f7a8b9c0d1
Create Date: 2026-11-28 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f6a7b8c9d0'
down_revision = 'e6f7a8b9c0d1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('evenings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=True),
    sa.Column('unit', sa.String(length=8), nullable=True),
    sa.Column('first_game', sa.Integer(), nullable=False),
    sa.Column('last_game', sa.Integer(), nullable=True),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_evenings_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_evenings')),
    sa.UniqueConstraint('table_id', 'number', name=op.f('uq_evenings_table_id_number'))
    )
    op.create_table('payments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('payer', sa.String(length=40), nullable=False),
    sa.Column('payee', sa.String(length=40), nullable=False),
    sa.Column('amount', sa.Integer(), nullable=False),
    sa.Column('marked_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], name=op.f('fk_payments_evening_id_evenings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payments'))
    )
    with op.batch_alter_table('payments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payments_evening_id'), ['evening_id'], unique=False)

    # Each table with games: evening 1, open since its first game, holding them all.
    connection = op.get_bind()
    games = sa.table('games', sa.column('table_id', sa.Integer),
                     sa.column('created_at', sa.DateTime(timezone=True)))
    evenings = sa.table('evenings', sa.column('table_id', sa.Integer),
                        sa.column('number', sa.Integer), sa.column('first_game', sa.Integer),
                        sa.column('opened_at', sa.DateTime(timezone=True)))
    firsts = connection.execute(
        sa.select(games.c.table_id, sa.func.min(games.c.created_at))
        .group_by(games.c.table_id).order_by(games.c.table_id)).all()
    if firsts:
        connection.execute(sa.insert(evenings), [
            {'table_id': table_id, 'number': 1, 'first_game': 1, 'opened_at': opened_at}
            for table_id, opened_at in firsts])


def downgrade():
    with op.batch_alter_table('payments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payments_evening_id'))

    op.drop_table('payments')
    op.drop_table('evenings')
