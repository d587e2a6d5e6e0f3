extension DisplayConfiguration {
    /// `display.modesetting`: atomic KMS where the driver has it (`auto`), or the legacy SetCrtc
    /// and PageFlip calls for drivers whose atomic support misbehaves (as mpv's `--drm-atomic=no`).
    public enum Modesetting: String, Sendable, Codable, CaseIterable {
        case auto, legacy
    }
}
