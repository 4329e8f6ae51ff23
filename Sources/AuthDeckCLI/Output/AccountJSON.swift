import AuthDeckCore

/// The `--json` shape of an account, written once, for `accounts --json` and `login --json`
/// alike: stable snake_case names documented in authdeck(1), keys in sorted order, empty
/// containers as `[]`/`{}`. Never carries a secret value; tokens and cookies are described,
/// not included.
///
/// Written straight from the entry (no value per account: each date a new String to make and
/// free again — `bench/run`'s `accounts --json` row); `JSONWriterTests` holds the bytes equal to
/// what JSONEncoder writes for an independent `Encodable` description of the same shape.
enum AccountJSON {
    /// Claims that are a NumericDate (seconds since 1970) where the token carries them: JWT's
    /// `exp`, `iat`, `nbf`, OpenID's `auth_time` and `updated_at`. The store keeps every claim as
    /// text; these go out as JSON numbers again, as the token had them, so a script can compare
    /// `exp` without parsing it.
    static let numericDateClaims: Set<String> = ["exp", "iat", "nbf", "auth_time", "updated_at"]

    /// Writes one account's object.
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
            if numericDateClaims.contains(name), let seconds = Int64(value) { w.int(seconds) } else { w.string(value) }
        }
        w.endObject()
        if let e = a.lastError {
            w.key("last_error")
            w.beginObject()
            w.field("at", e.at)
            w.field("class", e.errorClass.jsonName)
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

    /// One account's object as a whole document (`login --json`), handed to `sink`.
    static func document(_ entry: DeckAssessment.Entry, now: Instant, skew: TimeSpan, isDefault: Bool = false,
                         to sink: (UnsafeRawBufferPointer) -> Void) {
        var w = JSONWriter(capacity: 4096)
        write(entry, now: now, skew: skew, isDefault: isDefault, to: &w)
        w.finishLine()
        w.drain(sink)
    }

    /// A JSON array of the entries' accounts handed to `sink` in pieces of about `chunk` bytes.
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
