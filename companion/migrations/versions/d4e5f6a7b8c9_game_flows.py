"""game flows: a generic round draft, sealed choices, Tromplemond's timer on its own

The round draft keeps the round's facts in the record's form (``facts``)
for every game, and what was corrected since the last confirm; Tromplemond's
interrogation timer moves to ``tromplemond_timers``. The secret ballot's
tables become the generic sealed choices: revealed stages keep their counts
(now written once, at the reveal) and card cuts; a stage still open loses its
slips and asks its voters again, as after a restart.

Revision ID: d4e5f6a7b8c9
Revises: c3d4e5f6a7b8
Create Date: 2026-11-23 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e5f6a7b8c9'
down_revision = 'c3d4e5f6a7b8'
branch_labels = None
depends_on = None

OLD_DRAFT_COLUMNS = ('phase', 'hands', 'voted_off', 'shown_early', 'dealer_forfeit', 'called',
                     'timer', 'timer_started_at', 'timer_spent_ms')
MIGRATED_KEY = 'migrated'  # no key has this fingerprint: an open stage starts again


def _old_drafts():
    return sa.table(
        'round_drafts', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
        sa.column('round_index', sa.Integer), sa.column('phase', sa.String),
        sa.column('hands', sa.JSON), sa.column('voted_off', sa.String),
        sa.column('shown_early', sa.String), sa.column('dealer_forfeit', sa.Boolean),
        sa.column('called', sa.JSON), sa.column('timer', sa.String),
        sa.column('timer_started_at', sa.DateTime(timezone=True)),
        sa.column('timer_spent_ms', sa.Integer), sa.column('facts', sa.JSON))


def _create_new_tables():
    op.create_table('sealings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round_index', sa.Integer(), nullable=False),
    sa.Column('stage', sa.Integer(), nullable=False),
    sa.Column('step', sa.String(length=20), nullable=False),
    sa.Column('mode', sa.String(length=10), nullable=False),
    sa.Column('choosers', sa.JSON(), nullable=False),
    sa.Column('choices', sa.JSON(), nullable=True),
    sa.Column('key_id', sa.String(length=16), nullable=False),
    sa.Column('restarted', sa.Boolean(), nullable=False),
    sa.Column('revealed', sa.Boolean(), nullable=False),
    sa.Column('shown', sa.JSON(), nullable=True),
    sa.Column('verdict', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_sealings_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sealings')),
    sa.UniqueConstraint('game_id', 'round_index', 'stage', name=op.f('uq_sealings_game_id_round_index_stage'))
    )
    # Who has chosen, and the choice sealed: no id, no time, no order (WITHOUT ROWID).
    op.create_table('sealed_slips',
    sa.Column('sealing_id', sa.Integer(), nullable=False),
    sa.Column('chooser', sa.String(length=40), nullable=False),
    sa.Column('blob', sa.LargeBinary(length=284), nullable=False),
    sa.ForeignKeyConstraint(['sealing_id'], ['sealings.id'], name=op.f('fk_sealed_slips_sealing_id_sealings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('sealing_id', 'chooser', name=op.f('pk_sealed_slips')),
    sqlite_with_rowid=False
    )
    op.create_table('sealed_tallies',
    sa.Column('sealing_id', sa.Integer(), nullable=False),
    sa.Column('choice', sa.String(length=40), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['sealing_id'], ['sealings.id'], name=op.f('fk_sealed_tallies_sealing_id_sealings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('sealing_id', 'choice', name=op.f('pk_sealed_tallies')),
    sqlite_with_rowid=False
    )
    op.create_table('tromplemond_timers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round_index', sa.Integer(), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('spent_ms', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_tromplemond_timers_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tromplemond_timers')),
    sa.UniqueConstraint('game_id', name=op.f('uq_tromplemond_timers_game_id'))
    )


def _move_ballots(connection):
    ballots = sa.table('ballots', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                       sa.column('round_index', sa.Integer), sa.column('stage', sa.Integer),
                       sa.column('kind', sa.String), sa.column('voters', sa.JSON),
                       sa.column('candidates', sa.JSON), sa.column('revealed', sa.Boolean),
                       sa.column('cut', sa.String))
    counts = sa.table('ballot_counts', sa.column('ballot_id', sa.Integer),
                      sa.column('candidate', sa.String), sa.column('votes', sa.Integer))
    sealings = sa.table('sealings', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                        sa.column('round_index', sa.Integer), sa.column('stage', sa.Integer),
                        sa.column('step', sa.String), sa.column('mode', sa.String),
                        sa.column('choosers', sa.JSON), sa.column('choices', sa.JSON),
                        sa.column('key_id', sa.String), sa.column('restarted', sa.Boolean),
                        sa.column('revealed', sa.Boolean), sa.column('verdict', sa.String))
    tallies = sa.table('sealed_tallies', sa.column('sealing_id', sa.Integer),
                       sa.column('choice', sa.String), sa.column('count', sa.Integer))
    for row in connection.execute(sa.select(ballots)).mappings().all():
        connection.execute(sa.insert(sealings).values(
            id=row['id'], game_id=row['game_id'], round_index=row['round_index'],
            stage=row['stage'], step=row['kind'], mode='anonymous', choosers=row['voters'],
            choices=row['candidates'], key_id=MIGRATED_KEY, restarted=not row['revealed'],
            revealed=row['revealed'], verdict=row['cut']))
        if row['revealed']:
            for count in connection.execute(
                    sa.select(counts).where(counts.c.ballot_id == row['id'])).mappings():
                connection.execute(sa.insert(tallies).values(
                    sealing_id=row['id'], choice=count['candidate'], count=count['votes']))
    if connection.dialect.name == 'postgresql':
        connection.execute(sa.text(
            "SELECT setval(pg_get_serial_sequence('sealings', 'id'), "
            "COALESCE((SELECT MAX(id) FROM sealings), 0) + 1, false)"))


def upgrade():
    _create_new_tables()
    connection = op.get_bind()
    _move_ballots(connection)
    op.drop_table('ballot_counts')
    op.drop_table('ballot_voted')
    op.drop_table('ballots')

    with op.batch_alter_table('round_drafts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('facts', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('corrected_from', sa.JSON(), nullable=True))
    drafts = _old_drafts()
    timers = sa.table('tromplemond_timers', sa.column('game_id', sa.Integer),
                      sa.column('round_index', sa.Integer), sa.column('state', sa.String),
                      sa.column('started_at', sa.DateTime(timezone=True)),
                      sa.column('spent_ms', sa.Integer))
    for row in connection.execute(sa.select(drafts)).mappings().all():
        facts = {}
        if row['hands']:
            facts['hands'] = row['hands']
        for key in ('voted_off', 'shown_early'):
            if row[key]:
                facts[key] = row[key]
        if row['dealer_forfeit']:
            facts['dealer_forfeit'] = True
        if row['called']:
            facts['called'] = row['called']
        connection.execute(sa.update(drafts).where(drafts.c.id == row['id']).values(facts=facts))
        connection.execute(sa.insert(timers).values(
            game_id=row['game_id'], round_index=row['round_index'], state=row['timer'],
            started_at=row['timer_started_at'], spent_ms=row['timer_spent_ms']))
    with op.batch_alter_table('round_drafts', schema=None) as batch_op:
        batch_op.alter_column('facts', existing_type=sa.JSON(), nullable=False)
        for column in OLD_DRAFT_COLUMNS:
            batch_op.drop_column(column)


def downgrade():
    with op.batch_alter_table('round_drafts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('phase', sa.String(length=10), nullable=False, server_default='deal'))
        batch_op.add_column(sa.Column('hands', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('voted_off', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('shown_early', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('dealer_forfeit', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('called', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('timer', sa.String(length=10), nullable=False, server_default='ready'))
        batch_op.add_column(sa.Column('timer_started_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('timer_spent_ms', sa.Integer(), nullable=False, server_default='0'))
    connection = op.get_bind()
    drafts = _old_drafts()
    for row in connection.execute(sa.select(drafts.c.id, drafts.c.facts)).mappings().all():
        facts = row['facts'] or {}
        connection.execute(sa.update(drafts).where(drafts.c.id == row['id']).values(
            hands=facts.get('hands') or {}, voted_off=facts.get('voted_off'),
            shown_early=facts.get('shown_early'),
            dealer_forfeit=bool(facts.get('dealer_forfeit')), called=facts.get('called') or [],
            phase='hands' if facts.get('voted_off') or facts.get('shown_early') else 'deal'))
    with op.batch_alter_table('round_drafts', schema=None) as batch_op:
        batch_op.alter_column('hands', existing_type=sa.JSON(), nullable=False)
        batch_op.alter_column('called', existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column('corrected_from')
        batch_op.drop_column('facts')
    op.drop_table('tromplemond_timers')
    op.drop_table('sealed_tallies')
    op.drop_table('sealed_slips')
    op.drop_table('sealings')
    # The ballots come back empty: the sealed choices cannot be turned back into them.
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
