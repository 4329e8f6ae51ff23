import Testing
import Foundation
import AuthDeckProviders

/// An MSAL cache rewritten after an edit keeps what authdeck does not understand: unknown
/// sections and fields, numbers exactly as written, and the bytes of a file it wrote before.
@Suite struct MSALCacheTests {
    static let cache = #"""
    {
        "Account": {
            "uid.utid-login.windows.net-utid": {"home_account_id": "uid.utid", "environment": "login.windows.net", "realm": "utid",
                "username": "taro@contoso.com", "x_weight": 1.50, "x_id": 123456789012345678901, "authority_type": "MSSTS"},
            "gone.utid-login.windows.net-utid": {"home_account_id": "gone.utid", "environment": "login.windows.net", "realm": "utid", "username": "gone@contoso.com"}
        },
        "RefreshToken": {
            "uid.utid-login.windows.net-refreshtoken-c--": {"home_account_id": "uid.utid", "environment": "login.windows.net",
                "secret": "rt-\u00e9/1", "client_id": "c", "credential_type": "RefreshToken", "last_modification_time": "1700000000"}
        },
        "AppMetadata": {"appmetadata-login.windows.net-c": {"client_id": "c", "environment": "login.windows.net", "family_id": null}},
        "XUnknown": {"k": [1e3, true, {"v": "\/"}]}
    }
    """#

    @Test func anEditKeepsUnknownFieldsAndNumbersAsWritten() throws {
        var cache = try MSALCache(bytes: Array(Self.cache.utf8))
        #expect(cache.entries().map(\.username) == ["gone@contoso.com", "taro@contoso.com"])
        let removed = cache.remove(accountKeys: ["gone.utid-login.windows.net-utid"])
        #expect(removed == ["Account": ["gone.utid-login.windows.net-utid"]])
        let text = String(decoding: cache.serialized(), as: UTF8.self)
        #expect(text.contains(#""x_weight":1.50"#) && text.contains(#""x_id":123456789012345678901"#), "\(text)")
        #expect(text.contains(#""XUnknown":{"k":[1e3,true,{"v":"\/"}]}"#), "\(text)")
        #expect(text.contains(#""family_id":null"#) && !text.contains("gone@"))
        #expect(cache.refreshToken("uid.utid-login.windows.net-refreshtoken-c--")?.secret == "rt-é/1")
    }

    /// A file authdeck wrote (as `JSONSerialization` writes with sorted keys) is rewritten to
    /// the same bytes: nothing changes but what the edit removed.
    @Test func aFileAuthdeckWroteIsRewrittenByteForByte() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.cache.replacingOccurrences(of: "1.50", with: "1.5")
            .replacingOccurrences(of: "1e3", with: "1000").replacingOccurrences(of: "123456789012345678901", with: "12345").utf8))
        let written = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        let cache = try MSALCache(bytes: written)
        #expect(String(decoding: cache.serialized(), as: UTF8.self) == String(decoding: written, as: UTF8.self))
    }

    @Test func badJSONIsNamedWithWhere() {
        #expect(throws: MSALCache.FormatError.self) { try MSALCache(bytes: Array(#"{"Account":{},}"#.utf8)) }
        do {
            _ = try MSALCache(bytes: Array(#"{"Account": {"k": {"a": "x}}"#.utf8))
            Issue.record("accepted a string that never ends")
        } catch {
            #expect("\(error)" == "not valid JSON (truncated or damaged?): a string that never ends at byte 24")
        }
        #expect(throws: MSALCache.FormatError.self) { try MSALCache(bytes: Array("5".utf8)) }
    }
}
