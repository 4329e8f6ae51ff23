extension ProviderProfile {
    /// The SharePoint site of `options.site`, nil when it is missing or not a site.
    ///
    /// Config has already normalised the option to the bare host, so this only re-reads it;
    /// every use goes through `SiteHost` so a cookie domain or origin is matched one way.
    public var site: SiteHost? {
        options["site"].flatMap { try? SiteHost(parsing: $0) }
    }
}
