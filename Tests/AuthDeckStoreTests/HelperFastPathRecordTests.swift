import Testing
import Foundation
import GRDB
import AuthDeckCore
import AuthDeckStore
import AuthDeckVault
import AuthDeckTestSupport
import AuthDeckPlatform

/// The helpers' fast-path record (`HelperFastPath`): its stored form reads back exactly, a
/// variant of it is no record, and one edited without the key is not believed.
@Suite struct HelperFastPathRecordTests {
    let home = TempDirectory()
    static let routes = [
        CredentialRoute(url: "https://dev.azure.com/contoso", account: "work", scopes: ["499b84ac/.default", "x:y"]),
        CredentialRoute(url: "https://a.example/p:1/", account: "2:ab", username: "taro\n3:x"),
        CredentialRoute(url: "https://r.azurecr.io", account: "work/0000a001", registry: "acr", caFile: "/ca.pem"),
    ]

    @Test func theStoredFormReadsBackExactly() throws {
        let record = HelperFastPath(configIdentity: "/c/config.toml dev=1 ino=2\nodd", clockSkewSeconds: 60, routes: Self.routes)
        #expect(HelperFastPath(encoded: record.encoded) == record)
        #expect(record.routes[2].registry == nil && record.routes[2].caFile == nil, "docker's settings are not recorded")
        #expect(record.routes[1].url == "https://a.example/p:1", "normalized as the config loader does")
        let empty = HelperFastPath(configIdentity: "absent /x", clockSkewSeconds: 0, routes: [])
        #expect(HelperFastPath(encoded: empty.encoded) == empty)
        // Anything but the exact form is no record.
        for variant in [record.encoded + "x", String(record.encoded.dropLast()), "+" + record.encoded, "",
                        record.encoded.replacingOccurrences(of: "2:60", with: "3:060"),
                        record.encoded.replacingOccurrences(of: "1:3", with: "1:4")] {
            #expect(HelperFastPath(encoded: variant) == nil, "\(variant)")
        }
    }

    @Test func aRecordEditedWithoutTheKeyIsNotBelieved() throws {
        let loc = StoreLocation(databasePath: home.file("data/authdeck.db"), keyFilePath: home.file("data/key"))
        let store = try DeckStore.open(loc, clock: SystemClock())
        #expect(try store.sealedRecord(HelperFastPath.self) == nil)
        try store.saveSealedRecord(HelperFastPath(configIdentity: "id-1", clockSkewSeconds: 60, routes: Self.routes))
        let saved = try #require(try store.sealedRecord(HelperFastPath.self))
        #expect(saved.routes.map(\.account) == ["work", "2:ab", "work/0000a001"] && saved.configIdentity == "id-1")
        let forged = HelperFastPath(configIdentity: "id-1", clockSkewSeconds: 60,
                                    routes: [CredentialRoute(url: "https://dev.azure.com/contoso", account: "evil")])
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = ?", arguments: [forged.encoded, HelperFastPath.metaKey])
        }
        try queue.close()
        #expect(try store.sealedRecord(HelperFastPath.self) == nil)
        // The full binary writes it again on its next helper call.
        try store.saveSealedRecord(HelperFastPath(configIdentity: "id-1", clockSkewSeconds: 60, routes: Self.routes))
        #expect(try store.sealedRecord(HelperFastPath.self) == saved)
    }
}
