"""a seat request keeps the name a phone typed, asking for a seat that has none

Revision ID: 7c4e19a2b5d3
Revises: e5f6a7b8c9d0
Create Date: 2026-12-01 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c4e19a2b5d3'
down_revision = 'e5f6a7b8c9d0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seat_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table('seat_requests', schema=None) as batch_op:
        batch_op.drop_column('name')
