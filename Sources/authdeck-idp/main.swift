import AuthDeckEmulator

// The emulator as its own product, for the build tree and the tests (installed, it is a mode
// of authdeck-full: see EmulatorMain).
await EmulatorMain.run(Array(CommandLine.arguments.dropFirst()))
