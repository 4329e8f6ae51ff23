// swift-tools-version:6.1
// authdeck: a terminal account deck. Module map and dependency rules: ARCHITECTURE.md.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "authdeck",
    platforms: [.macOS(.v14)],
    products: [
        // `authdeck` is the small front (cached tokens); it execs `authdeck-full` for the rest.
        .executable(name: "authdeck", targets: ["AuthDeckFront"]),
        .executable(name: "authdeck-full", targets: ["AuthDeckCLI"]),
        .executable(name: "authdeck-idp", targets: ["authdeck-idp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        // System libraries. ncursesw is linked; libcurl is dlopen()ed by CCurl on first use.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // libsecret, dlopen()ed only when a store's key lives in the Secret Service.
        .target(name: "CSecret", path: "Sources/CSecret", linkerSettings: [.linkedLibrary("dl")]),
        // OpenSSL's libssl and libcrypto, dlopen()ed by the emulator's TLS listener and the demo's CA.
        .target(name: "CTLS", path: "Sources/CTLS", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // glibc's <malloc.h> (mallopt), for AuthDeckPlatform's MallocTuning.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),

        // Pure values and logic. Imports only the standard library.
        .target(name: "AuthDeckCore", swiftSettings: strict),
        // What both binaries resolve alike: store, key and config paths, the token fast-path
        // record, crash hygiene, malloc tuning, the agent's socket. Imports only Glibc (and its
        // <malloc.h>) and Core (the agent's message).
        .target(name: "AuthDeckPlatform", dependencies: ["AuthDeckCore", "CMalloc"], swiftSettings: strict),
        // What both binaries must agree on: the sealed-value layout, the key file's format, the
        // migrations, the tables' columns and the queries both run over them, meta keys and the
        // "last used" rule.
        .target(name: "AuthDeckVault", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckSQLite", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // The one thin wrapper over SQLite's C API (a statement read row by row), for the store's
        // listings and the front; SQLite itself as GRDB links it (GRDBSQLite is only the library).
        .target(name: "AuthDeckSQLite", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")],
                swiftSettings: strict),
        // config.toml loading and validation.
        .target(name: "AuthDeckConfig", dependencies: [
            "AuthDeckCore", "AuthDeckLook", "AuthDeckPlatform", .product(name: "TOMLKit", package: "TOMLKit"),
        ], swiftSettings: strict),
        // SQLite store: schema, migrations, sealing, leases, events.
        .target(name: "AuthDeckStore", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckVault", "AuthDeckSQLite", "CSecret",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        .target(name: "AuthDeckHTTP", dependencies: ["AuthDeckCore", "CCurl"], swiftSettings: strict),
        .target(name: "AuthDeckOAuth", dependencies: [
            "AuthDeckCore", "AuthDeckHTTP", .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        .target(name: "AuthDeckProviders", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckOAuth", "AuthDeckHTTP",
            .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        // The use cases, each written once (sign-out, pruning, the sign-in flow choice), and the
        // one wiring of provider adapters: what the CLI's commands and the deck's runtime call.
        .target(name: "AuthDeckApp", dependencies: [
            "AuthDeckCore", "AuthDeckConfig", "AuthDeckStore", "AuthDeckVault", "AuthDeckHTTP", "AuthDeckOAuth", "AuthDeckProviders",
            "AuthDeckPlatform",  // CrashHygiene: the sign-in window's browser gets the person's core limit
        ], swiftSettings: strict),
        // Roles, themes and the key table: named by config.toml, used by the deck.
        .target(name: "AuthDeckLook", dependencies: ["AuthDeckCore"], swiftSettings: strict),
        .target(name: "AuthDeckUI", dependencies: ["AuthDeckCore", "AuthDeckLook"], swiftSettings: strict),
        .target(name: "AuthDeckTerminal", dependencies: ["AuthDeckUI", "AuthDeckLook", "CNcursesw"], swiftSettings: strict),
        .target(name: "AuthDeckEmulator", dependencies: [
            "CTLS", .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: strict),
        .target(name: "AuthDeckTestSupport", dependencies: ["AuthDeckCore", "AuthDeckStore", "AuthDeckHTTP"],
                swiftSettings: strict),

        // The open deck: its loop on the terminal's thread and its work off it (DeckRuntime, DeckWork).
        .target(name: "AuthDeckDeck", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckConfig", "AuthDeckStore", "AuthDeckApp", "AuthDeckUI", "AuthDeckLook", "AuthDeckTerminal",
        ], swiftSettings: strict),
        // The full command line (product `authdeck-full`): commands parse, call AuthDeckApp and
        // format; neither HTTP nor OAuth is theirs to touch.
        .executableTarget(name: "AuthDeckCLI", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckConfig", "AuthDeckStore",
            "AuthDeckProviders", "AuthDeckUI", "AuthDeckLook", "AuthDeckTerminal", "AuthDeckApp", "AuthDeckDeck", "AuthDeckVault",
            "AuthDeckEmulator",  // installed, `authdeck-idp` is a link to authdeck-full (EmulatorMain)
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: strict),
        // The front (product `authdeck`): cached tokens without the full binary's start-up.
        .executableTarget(name: "AuthDeckFront", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckVault", "AuthDeckSQLite", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        .executableTarget(name: "authdeck-idp", dependencies: ["AuthDeckEmulator"], swiftSettings: strict),
        // Seeded mutation fuzzing of every parser of outside input (Tests/fuzz/run). Member
        // import visibility: without it `bytes[i] = …` on [UInt8] resolved to TOMLKit's
        // TOMLValueConvertible subscript (imported by another file), which leaked 24 KB a call.
        .executableTarget(name: "authdeck-fuzz", dependencies: [
            "AuthDeckCore", "AuthDeckConfig", "AuthDeckStore", "AuthDeckOAuth", "AuthDeckProviders", "AuthDeckVault", "AuthDeckPlatform",
        ], swiftSettings: strict + [.enableUpcomingFeature("MemberImportVisibility")]),

        .testTarget(name: "AuthDeckCoreTests", dependencies: ["AuthDeckCore", "AuthDeckTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "AuthDeckStoreTests", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckStore", "AuthDeckVault", "AuthDeckTestSupport",
        ], swiftSettings: strict),
        .testTarget(name: "AuthDeckConfigTests", dependencies: ["AuthDeckConfig", "AuthDeckCore", "AuthDeckTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "AuthDeckPlatformTests", dependencies: ["AuthDeckPlatform"], swiftSettings: strict),
        // Journeys: the real binaries (the deck in tmux, the emulator, glewlwyd, MSAL Python,
        // Chromium, git, kubectl, docker), driven as a person would; no module's own tests.
        .testTarget(name: "AuthDeckJourneyTests", dependencies: [
            "AuthDeckCore", "AuthDeckPlatform", "AuthDeckStore", "AuthDeckVault", "AuthDeckTestSupport", "AuthDeckUI", "AuthDeckLook",
        ], swiftSettings: strict),
    ]
)

package.targets.append(contentsOf: [
    .testTarget(name: "AuthDeckOAuthTests", dependencies: [
        "AuthDeckOAuth", "AuthDeckHTTP", "AuthDeckCore", "AuthDeckTestSupport",
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
    ], swiftSettings: strict),
    // Snapshots are read by path (#filePath), not bundled.
    .testTarget(name: "AuthDeckUITests", dependencies: [
        "AuthDeckUI", "AuthDeckLook", "AuthDeckCore", "AuthDeckConfig", "AuthDeckTerminal", "AuthDeckTestSupport",
    ], exclude: ["Snapshots"], swiftSettings: strict),
    .testTarget(name: "AuthDeckProvidersTests", dependencies: [
        "AuthDeckProviders", "AuthDeckPlatform", "AuthDeckStore", "AuthDeckCore", "AuthDeckTestSupport",
        "AuthDeckHTTP",  // the scripted network an adapter is given
        .product(name: "GRDB", package: "GRDB.swift"),  // a trigger that stops the clock at a commit
    ], swiftSettings: strict),
    .testTarget(name: "AuthDeckAppTests", dependencies: [
        "AuthDeckApp", "AuthDeckCore", "AuthDeckConfig", "AuthDeckStore", "AuthDeckPlatform", "AuthDeckProviders", "AuthDeckTestSupport",
        "AuthDeckHTTP",  // the requests a use case sent over a scripted network, and the browser it opened
        "AuthDeckOAuth",  // the JSON a use case's answer is read with
    ], swiftSettings: strict),
    // The commands in-process (`run(in:)` with a context of the test's own) and the executable's
    // own types (its JSON writer), through @testable import.
    .testTarget(name: "AuthDeckCLITests", dependencies: [
        "AuthDeckCLI", "AuthDeckCore", "AuthDeckConfig", "AuthDeckTestSupport", "AuthDeckStore", "AuthDeckUI", "AuthDeckLook", "AuthDeckTerminal", "AuthDeckPlatform",
        "AuthDeckDeck", "AuthDeckApp", "AuthDeckHTTP",  // AuthDeckHTTP: the network and browser ports a command is given
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ], swiftSettings: strict),
    // The deck's loop and its work, on a real store, with a scripted terminal.
    .testTarget(name: "AuthDeckDeckTests", dependencies: [
        "AuthDeckDeck", "AuthDeckCore", "AuthDeckConfig", "AuthDeckStore", "AuthDeckPlatform", "AuthDeckUI", "AuthDeckTerminal",
        "AuthDeckLook", "AuthDeckApp", "AuthDeckTestSupport",
    ], swiftSettings: strict),
])
