"""ballots: the secret vote's stages, who has voted, and the counts

Revision ID: b1c2d3e4f5a6
Revises: 0aacd849eec8
Create Date: 2026-11-22 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b1c2d3e4f5a6'
down_revision = '0aacd849eec8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('ballots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round_index', sa.Integer(), nullable=False),
    sa.Column('stage', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('voters', sa.JSON(), nullable=False),
    sa.Column('candidates', sa.JSON(), nullable=False),
    sa.Column('revealed', sa.Boolean(), nullable=False),
    sa.Column('cut', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_ballots_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ballots')),
    sa.UniqueConstraint('game_id', 'round_index', 'stage', name=op.f('uq_ballots_game_id_round_index_stage'))
    )
    # Who has voted: the key and nothing else; WITHOUT ROWID keeps rows in key order.
    op.create_table('ballot_voted',
    sa.Column('ballot_id', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['ballot_id'], ['ballots.id'], name=op.f('fk_ballot_voted_ballot_id_ballots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('ballot_id', 'player', name=op.f('pk_ballot_voted')),
    sqlite_with_rowid=False
    )
    op.create_table('ballot_counts',
    sa.Column('ballot_id', sa.Integer(), nullable=False),
    sa.Column('candidate', sa.String(length=40), nullable=False),
    sa.Column('votes', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['ballot_id'], ['ballots.id'], name=op.f('fk_ballot_counts_ballot_id_ballots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('ballot_id', 'candidate', name=op.f('pk_ballot_counts')),
    sqlite_with_rowid=False
    )


def downgrade():
    op.drop_table('ballot_counts')
    op.drop_table('ballot_voted')
    op.drop_table('ballots')
