/// The release this build is: `marquee --version`, the status card, the status and
/// `marquee_build_info`. One constant, so the metrics (built in the session, not the executable)
/// and the CLI cannot disagree.
public enum MarqueeVersion {
    public static let current = "0.7.0"
}
