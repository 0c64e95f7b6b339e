"""Pure cryptographic building blocks: canonical bytes, signatures, identities, sealed keys."""
