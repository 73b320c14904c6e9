"""players: a table's players, the same at every evening; seats and games link to them

Each table gets one player per name its seats and games have had (the ledger
matched players by name until now, so a name is one player); each named seat
links to its player, and each game keeps its players' ids by name.

Revision ID: f7a8b9c0d1e2
Revises: 5265843de2f6
Create Date: 2026-11-27 23:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f7a8b9c0d1e2'
down_revision = '5265843de2f6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_players_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_table_id'), ['table_id'], unique=False)
    # Plain columns, added in place: remaking seats or games on SQLite (a batch) would drop
    # the rows that cascade from them (seat requests, drafts).
    op.add_column('seats', sa.Column('player_id', sa.Integer(), nullable=True))
    op.add_column('games', sa.Column('player_ids', sa.JSON(), nullable=True))

    # One player per name each table's seats and games have had.
    connection = op.get_bind()
    seats = sa.table('seats', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                     sa.column('name', sa.String), sa.column('player_id', sa.Integer))
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                     sa.column('number', sa.Integer), sa.column('players', sa.JSON),
                     sa.column('created_at', sa.DateTime(timezone=True)),
                     sa.column('player_ids', sa.JSON))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                       sa.column('name', sa.String),
                       sa.column('created_at', sa.DateTime(timezone=True)))
    tables = sa.table('tables', sa.column('id', sa.Integer),
                      sa.column('created_at', sa.DateTime(timezone=True)))
    for table_id, created_at in connection.execute(
            sa.select(tables.c.id, tables.c.created_at).order_by(tables.c.id)).all():
        played = connection.execute(
            sa.select(games.c.id, games.c.players).where(games.c.table_id == table_id)
            .order_by(games.c.number)).all()
        seated = connection.execute(
            sa.select(seats.c.id, seats.c.name).where(seats.c.table_id == table_id)
            .order_by(seats.c.id)).all()
        names = []
        for _id, names_in_game in played:
            names.extend(n for n in names_in_game or () if n not in names)
        names.extend(n for _id, n in seated if n is not None and n not in names)
        ids = {}
        for name in names:
            ids[name] = connection.execute(
                sa.insert(players).values(table_id=table_id, name=name, created_at=created_at)
                .returning(players.c.id)).scalar_one()
        for seat_id, name in seated:
            if name in ids:
                connection.execute(sa.update(seats).where(seats.c.id == seat_id)
                                   .values(player_id=ids[name]))
        for game_id, names_in_game in played:
            connection.execute(sa.update(games).where(games.c.id == game_id).values(
                player_ids={n: ids[n] for n in names_in_game or ()}))


def downgrade():
    op.drop_column('games', 'player_ids')
    op.drop_column('seats', 'player_id')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_table_id'))
    op.drop_table('players')
