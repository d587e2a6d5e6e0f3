import Foundation
import Testing
import MarqueeCore
import MarqueeMedia

/// The strongest check that text comes out right: tesseract (tesseract-ocr, a test dependency like
/// ffmpeg) reads back what was drawn, upright and on a screen turned for portrait. A machine
/// without tesseract fails these tests rather than skipping them.
@Suite struct OCRReadBackTests {
    static let label = "PAUSED 1:23 / 4:56"

    /// Draws `label` dark on a light panel, blends it into a mid-grey 1280x720 picture turned by
    /// `rotation` as the player turns pictures in software, and returns what the viewer sees.
    static func screen(turnedClockwise rotation: Rotation) throws -> Canvas {
        let renderer = try TestFont.renderer()
        let measured = renderer.measure(label, pixelSize: 56)
        var overlay = OverlayImage(size: PixelSize(width: measured.width + 80, height: measured.lineHeight + 40))
        overlay.fill(PixelRect(size: overlay.size), with: OverlayColor(red: 250, green: 250, blue: 250, alpha: 230), cornerRadius: 16)
        try renderer.draw(label, pixelSize: 56, color: OverlayColor(red: 10, green: 10, blue: 10), into: &overlay,
                          x: 40, baseline: 20 + measured.ascent)
        let upright = PixelSize(width: 1280, height: 720)
        let buffer = Canvas(size: upright.rotated(by: rotation), background: RGBColor(red: 90, green: 90, blue: 90))
        return buffer.withPixelBuffer { pixels in
            pixels.blend(overlay, x: 100, y: 300, opacity: 0.9, turnedClockwise: rotation)
            // The screen is mounted so that it undoes the turn: the viewer sees the buffer turned back.
            return Canvas(copying: pixels, turnedClockwise: rotation.inverse)
        }
    }

    /// What tesseract reads in `canvas`. `pageSegmentation` is tesseract's --psm: 7 for one line of
    /// text, 11 for labels scattered over the picture (the OSD), 6 for a block of lines (the status card).
    static func read(_ canvas: Canvas, pageSegmentation: Int = 7) throws -> String {
        let directory = NSTemporaryDirectory() + "marquee-ocr-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let png = directory + "/osd.png"
        try PNGWriter.write(canvas, to: png)
        // MARQUEE_OCR_KEEP=dir keeps each picture tesseract read, to look at when a reading fails.
        if let keep = ProcessInfo.processInfo.environment["MARQUEE_OCR_KEEP"] {
            try? FileManager.default.copyItem(atPath: png, toPath: keep + "/ocr-\(UUID().uuidString).png")
        }
        let tesseract = Process()
        tesseract.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tesseract.arguments = ["tesseract", png, "stdout", "--psm", String(pageSegmentation)]
        let output = Pipe(), errors = Pipe()
        tesseract.standardOutput = output
        tesseract.standardError = errors
        try tesseract.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let diagnostics = errors.fileHandleForReading.readDataToEndOfFile()
        tesseract.waitUntilExit()
        guard tesseract.terminationStatus == 0 else {
            throw OCRFailure(message: "tesseract exited \(tesseract.terminationStatus) (is tesseract-ocr installed? "
                + "Scripts/install-dependencies.sh installs it): \(String(decoding: diagnostics, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct OCRFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    @Test(arguments: [Rotation.none, .clockwise90, .clockwise270])
    func tesseractReadsTheLabelBack(_ rotation: Rotation) throws {
        let text = try Self.read(try Self.screen(turnedClockwise: rotation))
        #expect(text == Self.label)
    }
}
