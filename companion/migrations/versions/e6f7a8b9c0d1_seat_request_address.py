"""seat requests remember (a hash of) the address they came from, to limit them

Revision ID: e6f7a8b9c0d1
Revises: d4e5f6a7b8c9
Create Date: 2026-11-23 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e6f7a8b9c0d1'
down_revision = 'd4e5f6a7b8c9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seat_requests', schema=None) as batch_op:
        batch_op.add_column(sa.Column('address_hash', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('seat_requests', schema=None) as batch_op:
        batch_op.drop_column('address_hash')
