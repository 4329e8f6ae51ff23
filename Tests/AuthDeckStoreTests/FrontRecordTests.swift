import Testing
import Foundation
import GRDB
import AuthDeckCore
import AuthDeckStore
import AuthDeckVault
import AuthDeckTestSupport
import AuthDeckPlatform

/// The front's record of the config (`FrontRecord`): its stored form reads back exactly, a
/// variant of it is no record, one edited without the key is not believed, and writing it
/// retires the three records it replaced.
@Suite struct FrontRecordTests {
    let home = TempDirectory()
    static let pins = ["prod": "72f988bf-86f1-41af-91ab-2d7cd011db47", "dev": "1:x"]
    static let routes = [
        CredentialRoute(url: "https://dev.azure.com/contoso", account: "work", scopes: ["499b84ac/.default", "x:y"]),
        CredentialRoute(url: "https://a.example/p:1/", account: "2:ab", username: "taro\n3:x"),
        CredentialRoute(url: "https://r.azurecr.io", account: "work/0000a001", registry: "acr", caFile: "/ca.pem"),
    ]

    @Test func theStoredFormReadsBackExactly() throws {
        let record = FrontRecord(configIdentity: "/c/config.toml dev=1 ino=2\nodd", clockSkewSeconds: 60, routes: Self.routes, pins: Self.pins)
        #expect(FrontRecord(encoded: record.encoded) == record)
        #expect(record.routes[2].registry == nil && record.routes[2].caFile == nil, "docker's settings are not recorded")
        #expect(record.routes[1].url == "https://a.example/p:1", "normalized as the config loader does")
        let empty = FrontRecord(configIdentity: "absent /x", clockSkewSeconds: 0, routes: [], pins: [:])
        #expect(FrontRecord(encoded: empty.encoded) == empty)
        // Anything but the exact form is no record.
        for variant in [record.encoded + "x", String(record.encoded.dropLast()), "+" + record.encoded, "",
                        record.encoded.replacingOccurrences(of: "2:60", with: "3:060"),
                        record.encoded.replacingOccurrences(of: "1:3", with: "1:4"),
                        record.encoded.replacingOccurrences(of: "1:23:dev", with: "1:33:dev"), record.encoded + "3:dev"] {
            #expect(FrontRecord(encoded: variant) == nil, "\(variant)")
        }
    }

    @Test func aRecordEditedWithoutTheKeyIsNotBelieved() throws {
        let loc = StoreLocation(databasePath: home.file("data/authdeck.db"), keyFilePath: home.file("data/key"))
        let store = try DeckStore.open(loc, clock: SystemClock())
        #expect(try store.sealedRecord(FrontRecord.self) == nil)
        try store.saveSealedRecord(FrontRecord(configIdentity: "id-1", clockSkewSeconds: 60, routes: Self.routes, pins: Self.pins))
        let saved = try #require(try store.sealedRecord(FrontRecord.self))
        #expect(saved.routes.map(\.account) == ["work", "2:ab", "work/0000a001"] && saved.configIdentity == "id-1" && saved.pins == Self.pins)
        let forged = FrontRecord(configIdentity: "id-1", clockSkewSeconds: 60,
                                 routes: [CredentialRoute(url: "https://dev.azure.com/contoso", account: "evil")], pins: [:])
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = ?", arguments: [forged.encoded, FrontRecord.metaKey])
        }
        try queue.close()
        #expect(try store.sealedRecord(FrontRecord.self) == nil)
        // The full binary writes it again on its next token call.
        try store.saveSealedRecord(FrontRecord(configIdentity: "id-1", clockSkewSeconds: 60, routes: Self.routes, pins: Self.pins))
        #expect(try store.sealedRecord(FrontRecord.self) == saved)
    }

    /// The records it replaced (`fast_token.v1`, `fast_helpers.v1`, `tenant_pins.v1`, as a
    /// store of an earlier authdeck holds them) go when it is written; others stay.
    @Test func writingItRetiresTheRecordsItReplaced() throws {
        let loc = StoreLocation(databasePath: home.file("data/authdeck.db"), keyFilePath: home.file("data/key"))
        let store = try DeckStore.open(loc, clock: SystemClock())
        let queue = try DatabaseQueue(path: loc.databasePath)
        func keys() throws -> [String] {
            try queue.read { db in try String.fetchAll(db, sql: "SELECT key FROM meta WHERE key LIKE 'fast_%' OR key LIKE 'tenant_%' ORDER BY key") }
        }
        try queue.write { db in
            for key in FrontRecord.retiredMetaKeys + ["fast_status.v1"] {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, 'x')", arguments: [key])
            }
        }
        try store.saveSealedRecord(FrontRecord(configIdentity: "id-1", clockSkewSeconds: 60, routes: [], providers: [
            ProviderProfile(id: "prod", kind: .azuread, options: ["tenant": Self.pins["prod"]!]),
            ProviderProfile(id: "any", kind: .azuread, options: ["tenant": "common"]),
        ]))
        #expect(try keys() == ["fast_front.v1", "fast_front.v1.seal", "fast_status.v1"])
        #expect(try store.sealedRecord(FrontRecord.self)?.pins == ["prod": Self.pins["prod"]!])
        try queue.close()
    }
}
