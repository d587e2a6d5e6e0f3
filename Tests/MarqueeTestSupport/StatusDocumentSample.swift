import MarqueeCore

extension StatusDocument {
    /// A status with nothing on screen and every optional part left out, for tests to fill in.
    public static func sample(state: PlaybackState = .playing) -> StatusDocument {
        StatusDocument(state: state, loadState: .playable, rate: 1, soundAtRate: .normal, display: "on", repeatMode: .all,
                       scaling: .aspectFit, volume: 1, muted: false, pauseAfterCurrentItem: false, actionAtItemEnd: .advance,
                       itemCount: 0, framesPresented: 0, framesDropped: 0, uptime: 0, screenSize: PixelSize(width: 1920, height: 1080),
                       accessLog: [], errorLog: [])
    }
}
