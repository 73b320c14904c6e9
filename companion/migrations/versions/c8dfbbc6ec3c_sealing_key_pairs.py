"""sealing key pairs: each sealing keeps its public key; the process-wide key is gone

A sealing's slips are now sealed to a key pair of its own (X25519), whose private
key lives only in the server's memory. ``sealings.public_key`` replaces the old
key's fingerprint (``key_id``). The slips of a sealing still open were sealed
with the old key: they are deleted, and the sealing is voided at the server's
first request (a new key pair, ``restarted``: its choosers choose again).

Revision ID: c8dfbbc6ec3c
Revises: 7c4e19a2b5d3
Create Date: 2026-11-27 19:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c8dfbbc6ec3c'
down_revision = '7c4e19a2b5d3'
branch_labels = None
depends_on = None


# Plain ALTER TABLE on both databases (SQLite 3.35+ drops a column in place): a batch
# copy of ``sealings`` on SQLite would drop the old table, and with it, through ON DELETE
# CASCADE, every count and slip of every sealing.


def upgrade():
    op.execute("DELETE FROM sealed_slips")
    op.add_column('sealings', sa.Column('public_key', sa.LargeBinary(length=32), nullable=True))
    op.drop_column('sealings', 'key_id')


def downgrade():
    # Downgraded, every open sealing starts again under the old process-wide key.
    op.execute("DELETE FROM sealed_slips")
    op.add_column('sealings', sa.Column('key_id', sa.String(length=16), nullable=False,
                                        server_default=''))
    op.drop_column('sealings', 'public_key')
