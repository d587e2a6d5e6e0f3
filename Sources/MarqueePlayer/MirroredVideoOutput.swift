import MarqueeCore

/// One screen's output plus the screens that mirror it. The player sees the main screen only (its
/// size, its screenshots); each picture it draws is drawn again into every mirror's back buffer
/// from the same decoded frame, placed for that mirror's size, rotation and scaling, and every
/// screen flips with the main one, so a mirror shows the same frame index, never a second decode.
///
/// What the player draws that is not a decoded picture (the stop's background, a status card) is
/// drawn as it is into a mirror of the main screen's size and rotation, and shown as the mirror's
/// background on any other. The OSD stays on the main screen.
public final class MirroredVideoOutput: VideoOutput, PictureMirroring, @unchecked Sendable {
    /// One mirroring screen and how it lays pictures out.
    public struct Mirror {
        public let output: VideoOutput
        public let rotation: Rotation
        public let scaling: ScalingMode
        public let background: RGBColor

        public init(output: VideoOutput, rotation: Rotation, scaling: ScalingMode, background: RGBColor) {
            self.output = output
            self.rotation = rotation
            self.scaling = scaling
            self.background = background
        }
    }

    public let main: VideoOutput
    public let mirrors: [Mirror]
    /// The main screen's rotation as the player draws it (none when its plane turns the picture).
    private let mainRotation: Rotation
    /// Set by `willDraw` for the `prepare` that follows; taken by it.
    private var pending: MirroredPicture?
    /// A mirror whose output failed reports once per failure run, not every frame.
    private var failing: Set<Int> = []
    private let report: (String) -> Void

    public init(main: VideoOutput, mainRotation: Rotation, mirrors: [Mirror], report: @escaping (String) -> Void = { _ in }) {
        self.main = main
        self.mainRotation = mainRotation
        self.mirrors = mirrors
        self.report = report
    }

    public var screenSize: PixelSize { main.screenSize }

    public func willDraw(_ picture: MirroredPicture) {
        pending = picture
    }

    public func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        let picture = pending
        pending = nil
        try main.prepare(draw)
        for (index, mirror) in mirrors.enumerated() {
            // A mirror that fails (unplugged, its flips refused) never stops the main screen.
            attempt(index) {
                try mirror.output.prepare { buffer in
                    if let picture {
                        try self.drawPicture(picture, into: buffer, for: mirror)
                    } else if buffer.size == main.screenSize && mirror.rotation == mainRotation {
                        try draw(buffer)
                    } else {
                        buffer.fill(PixelRect(size: buffer.size), with: mirror.background)
                    }
                }
            }
        }
    }

    public func showPrepared() throws {
        try main.showPrepared()
        for (index, mirror) in mirrors.enumerated() {
            attempt(index) { try mirror.output.showPrepared() }
        }
    }

    public func screenshot() throws -> Canvas? {
        try main.screenshot()
    }

    /// The picture placed for the mirror's own screen, as the player places it for the main one.
    private func drawPicture(_ mirrored: MirroredPicture, into buffer: PixelBuffer, for mirror: Mirror) throws {
        let geometry = ScalingGeometry(sourceSize: mirrored.sourceSize, sampleAspectRatio: mirrored.sampleAspectRatio,
                                       sourceRotation: mirrored.sourceRotation, screenSize: buffer.size,
                                       displayRotation: mirror.rotation)
        let placement = geometry.placement(for: mirrored.scaling ?? mirror.scaling)
        try mirrored.picture.draw(into: buffer, placement: placement, background: mirror.background)
    }

    private func attempt(_ index: Int, _ body: () throws -> Void) {
        do {
            try body()
            failing.remove(index)
        } catch {
            if failing.insert(index).inserted { report("mirror \(index + 1): \(error); the main screen plays on") }
        }
    }
}
