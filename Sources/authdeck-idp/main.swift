#if canImport(Glibc)
import Glibc
#endif
import AuthDeckEmulator

// The provider emulator's HTTP server arrives with the Microsoft issue (#4); until then
// this binary says so instead of pretending to serve.
let message = "authdeck-idp: the provider emulator is not built yet (tracked in issue #4)\n"
FileHandleOutput.standardError(message)
Glibc.exit(2)
