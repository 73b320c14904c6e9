"""tromplemond rounds: the round in progress (round_drafts) and each table's money unit

Revision ID: c3d4e5f6a7b8
Revises: b1c2d3e4f5a6
Create Date: 2026-11-22 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3d4e5f6a7b8'
down_revision = 'b1c2d3e4f5a6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('unit', sa.String(length=8), server_default='chips',
                                      nullable=False))

    op.create_table('round_drafts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round_index', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=10), nullable=False),
    sa.Column('hands', sa.JSON(), nullable=False),
    sa.Column('voted_off', sa.String(length=40), nullable=True),
    sa.Column('shown_early', sa.String(length=40), nullable=True),
    sa.Column('dealer_forfeit', sa.Boolean(), nullable=False),
    sa.Column('called', sa.JSON(), nullable=False),
    sa.Column('ticks', sa.JSON(), nullable=False),
    sa.Column('timer', sa.String(length=10), nullable=False),
    sa.Column('timer_started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('timer_spent_ms', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_round_drafts_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_drafts')),
    sa.UniqueConstraint('game_id', name=op.f('uq_round_drafts_game_id'))
    )


def downgrade():
    op.drop_table('round_drafts')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('unit')
