/// AuthDeckEmulator: local emulators of the providers' wire formats (shared/PROVIDERS.md)
/// for tests and `authdeck demo`, served by `authdeck-idp`.
///
/// It encodes the document on its own and never imports the adapters (nor AuthDeckHTTP or
/// AuthDeckOAuth), so a test between the two checks both against the document rather than
/// against each other. Everything it issues lives in memory; its clock can be advanced.
public enum AuthDeckEmulator {}
