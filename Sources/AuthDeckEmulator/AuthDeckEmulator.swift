/// AuthDeckEmulator: local emulators of every provider's wire format (shared/PROVIDERS.md)
/// for tests and `authdeck demo`. It encodes the document on its own and never imports the
/// adapters, so a test between the two checks both against the document.
public enum AuthDeckEmulator {}
