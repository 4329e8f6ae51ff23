extension DeckEvent {
    /// The detail with a renewal failure's leading error class in its documented `--json`
    /// spelling (`needs_interaction no_refresh_token: …`). Why: events recorded before the
    /// renewal wrote that spelling say `needsInteraction`, and `events --json` must print one
    /// vocabulary whatever version wrote the row.
    public var detailInJSONSpelling: String {
        guard kind == .refreshFailed, let space = detail.firstIndex(of: " "),
              let errorClass = ErrorClass(named: detail[..<space]) else { return detail }
        return errorClass.jsonName + detail[space...]
    }
}
