import AuthDeckCore

/// The `--json` shape of one account: stable snake_case names documented in authdeck(1).
/// Never carries a secret value; tokens and cookies are described, not included.
struct AccountJSON: Encodable {
    struct ErrorJSON: Encodable {
        var `class`: String
        var code: String
        var remedy: String
        var at: String
    }
    struct AccessTokenJSON: Encodable {
        var scopes: [String]
        var token_type: String
        var obtained_at: String
        var expires_at: String?
        var valid: Bool
    }
    struct RefreshTokenJSON: Encodable {
        var generation: Int
        var obtained_at: String
        var expires_at: String?
    }
    struct CookieJSON: Encodable {
        var name: String
        var domain: String
        var path: String
        var expires_at: String?
        var secure: Bool
        var http_only: Bool
    }

    var id: String
    var provider: String
    var subject: String
    var username: String
    var display_name: String
    var realm: String?
    var state: String
    var state_reason: String?
    var renewable: Bool?
    var expires_at: String?
    var expires_in_seconds: Int64?
    var created_at: String
    /// The account a bare provider id stands for (`authdeck use`).
    var `default`: Bool
    var last_sign_in_at: String?
    var last_used_at: String?
    var last_error: ErrorJSON?
    var failed_attempts: Int
    var access_tokens: [AccessTokenJSON]
    var refresh_token: RefreshTokenJSON?
    var cookies: [CookieJSON]
    var id_token_claims: [String: String]
    var quarantined_at: String?

    init(_ entry: DeckAssessment.Entry, now: Instant, skew: TimeSpan, isDefault: Bool = false) {
        let a = entry.stored.account
        let c = entry.stored.credentials
        id = a.id
        provider = a.providerId
        subject = a.subject
        username = a.username
        display_name = a.displayName
        realm = a.realm
        state = entry.state.key
        state_reason = entry.state.reason
        renewable = entry.state.renewable
        expires_at = entry.expiry?.iso8601
        expires_in_seconds = entry.expiry.map { ($0 - now).seconds }
        created_at = a.createdAt.iso8601
        `default` = isDefault
        last_sign_in_at = a.lastSignInAt?.iso8601
        last_used_at = a.lastUsedAt?.iso8601
        last_error = a.lastError.map { ErrorJSON(class: $0.errorClass.rawValue, code: $0.code, remedy: $0.remedy, at: $0.at.iso8601) }
        failed_attempts = a.failedAttempts
        access_tokens = c.accessTokens.map {
            AccessTokenJSON(scopes: $0.scopes, token_type: $0.tokenType, obtained_at: $0.obtainedAt.iso8601,
                            expires_at: $0.expiresAt?.iso8601, valid: $0.isValid(at: now, skew: skew))
        }
        refresh_token = c.refreshToken.map {
            RefreshTokenJSON(generation: $0.generation, obtained_at: $0.obtainedAt.iso8601, expires_at: $0.expiresAt?.iso8601)
        }
        cookies = c.cookies.map {
            CookieJSON(name: $0.name, domain: $0.domain, path: $0.path, expires_at: $0.expiresAt?.iso8601,
                       secure: $0.secure, http_only: $0.httpOnly)
        }
        id_token_claims = c.idTokenClaims
        quarantined_at = a.quarantinedAt?.iso8601
    }

    /// Writes `AccountJSON(entry, now:, skew:)` as its `Encodable` conformance would — keys in
    /// sorted order — straight from the entry. Why: no value per account (each date a new String)
    /// to make and free again. Every field is the same expression as in `init`;
    /// `JSONWriterTests` holds the bytes equal to JSONEncoder's.
    static func write(_ entry: DeckAssessment.Entry, now: Instant, skew: TimeSpan, isDefault: Bool = false, to w: inout JSONWriter) {
        let a = entry.stored.account
        let c = entry.stored.credentials
        w.beginObject()
        w.key("access_tokens")
        w.beginArray()
        for t in c.accessTokens {
            w.beginObject()
            w.field("expires_at", t.expiresAt)
            w.field("obtained_at", t.obtainedAt)
            w.key("scopes")
            w.beginArray()
            for s in t.scopes { w.string(s) }
            w.endArray()
            w.field("token_type", t.tokenType)
            w.key("valid")
            w.bool(t.isValid(at: now, skew: skew))
            w.endObject()
        }
        w.endArray()
        w.key("cookies")
        w.beginArray()
        for k in c.cookies {
            w.beginObject()
            w.field("domain", k.domain)
            w.field("expires_at", k.expiresAt)
            w.key("http_only")
            w.bool(k.httpOnly)
            w.field("name", k.name)
            w.field("path", k.path)
            w.key("secure")
            w.bool(k.secure)
            w.endObject()
        }
        w.endArray()
        w.field("created_at", a.createdAt)
        w.key("default")
        w.bool(isDefault)
        w.field("display_name", a.displayName)
        w.field("expires_at", entry.expiry)
        if let expiry = entry.expiry {
            w.key("expires_in_seconds")
            w.int((expiry - now).seconds)
        }
        w.key("failed_attempts")
        w.int(Int64(a.failedAttempts))
        w.field("id", a.id)
        w.key("id_token_claims")
        w.beginObject()
        for (name, value) in c.idTokenClaims.sorted(by: { $0.key < $1.key }) {
            w.key(named: name)
            w.string(value)
        }
        w.endObject()
        if let e = a.lastError {
            w.key("last_error")
            w.beginObject()
            w.field("at", e.at)
            w.field("class", e.errorClass.rawValue)
            w.field("code", e.code)
            w.field("remedy", e.remedy)
            w.endObject()
        }
        w.field("last_sign_in_at", a.lastSignInAt)
        w.field("last_used_at", a.lastUsedAt)
        w.field("provider", a.providerId)
        w.field("quarantined_at", a.quarantinedAt)
        w.field("realm", a.realm)
        if let r = c.refreshToken {
            w.key("refresh_token")
            w.beginObject()
            w.field("expires_at", r.expiresAt)
            w.key("generation")
            w.int(Int64(r.generation))
            w.field("obtained_at", r.obtainedAt)
            w.endObject()
        }
        if let renewable = entry.state.renewable {
            w.key("renewable")
            w.bool(renewable)
        }
        w.field("state", entry.state.key)
        w.field("state_reason", entry.state.reason)
        w.field("subject", a.subject)
        w.field("username", a.username)
        w.endObject()
    }

    /// A JSON array of the entries' accounts — what `Output.json` would print for their
    /// `[AccountJSON]` — handed to `sink` in pieces of about `chunk` bytes.
    ///
    /// Why: a large store's document runs to megabytes, and building it whole faults in fresh
    /// pages for all of it.
    static func stream(_ entries: [DeckAssessment.Entry], now: Instant, skew: TimeSpan, defaults: Set<String> = [], chunk: Int = 1 << 16,
                       to sink: (UnsafeRawBufferPointer) -> Void) {
        var w = JSONWriter(capacity: min(chunk, 1 << 20) + 4096)
        w.beginArray()
        // By index: `for entry in entries` copied each (large) entry, retaining every field.
        for index in entries.indices {
            write(entries[index], now: now, skew: skew, isDefault: !defaults.isEmpty && defaults.contains(entries[index].stored.account.id), to: &w)
            if w.count >= chunk { w.drain(sink) }
        }
        w.endArray()
        w.finishLine()
        w.drain(sink)
    }
}
