"""taps: the keys of the taps applied, with their first answers, so a tap sent again is
applied once (companion.store.taps)

Revision ID: 5265843de2f6
Revises: c8dfbbc6ec3c
Create Date: 2026-11-27 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5265843de2f6'
down_revision = 'c8dfbbc6ec3c'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('taps',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=32), nullable=False),
    sa.Column('status', sa.Integer(), nullable=True),
    sa.Column('location', sa.String(length=500), nullable=True),
    sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_taps')),
    sa.UniqueConstraint('digest', name=op.f('uq_taps_digest'))
    )
    with op.batch_alter_table('taps', schema=None) as batch_op:
        batch_op.create_index('ix_taps_made_at', ['made_at'], unique=False)


def downgrade():
    with op.batch_alter_table('taps', schema=None) as batch_op:
        batch_op.drop_index('ix_taps_made_at')

    op.drop_table('taps')
