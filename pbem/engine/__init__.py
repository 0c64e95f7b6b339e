"""The rules-independent core: game registry and the ledger of signed, chained entries."""
