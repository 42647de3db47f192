-- Claiming outbox rows with a lease (issue 35): the delivery worker used to hold a claimed
-- row's `FOR UPDATE` lock for the whole SMTP attempt (up to its 60 s send timeout), so a slow
-- relay made every write that locks the row — deleting its estimate deletes its pending
-- emails — wait on the network, and fail with a 503 after the request timeout. Now a claim is
-- one short statement that marks the row taken until `leased_until`; the send runs with no
-- transaction open, and its outcome clears the lease. A worker that dies mid-send leaves the
-- row pending, claimable again once the lease has passed: delivery stays at least once, with
-- the row's fixed Message-ID.
ALTER TABLE email_queue ADD COLUMN leased_until TIMESTAMPTZ;
