"""What leaves the house: notifications folded from the log, webhook subscriptions, deliveries and their senders."""
