import Foundation
import MarqueeCore

/// Test pictures that carry their own frame number, so a test can tell which frame it is looking at
/// from the pixels alone, after compression, scaling and conversion.
///
/// The picture is 320x240 black with a 4x4 grid of 64x48 blocks inside a 32x24 margin; block k
/// (row-major from the top left) is white when bit k of the frame number N is set. ffmpeg's `geq`
/// filter draws it from `N`, so every encoder and container sees the same content.
enum FrameIndexCodec {
    static let pictureSize = PixelSize(width: 320, height: 240)
    static let columns = 4
    static let rows = 4
    static let margin = PixelSize(width: 32, height: 24)
    static let block = PixelSize(width: 64, height: 48)

    /// The lavfi graph for `frames` frames at `rate` (`25`, `30000/1001`); `select` picks one frame
    /// (for still images of frame `select`).
    static func lavfiSource(frames: Int, rate: String, select: Int? = nil) -> [String] {
        let x0 = margin.width, x1 = margin.width + columns * block.width - 1
        let y0 = margin.height, y1 = margin.height + rows * block.height - 1
        let bit = "pow(2,floor((X-\(x0))/\(block.width))+\(columns)*floor((Y-\(y0))/\(block.height)))"
        let luma = "if(between(X,\(x0),\(x1))*between(Y,\(y0),\(y1)),if(bitand(N,\(bit)),235,16),16)"
        var graph = "color=c=black:size=\(pictureSize.width)x\(pictureSize.height):rate=\(rate),format=yuv420p,"
            + "geq=lum='\(luma)':cb=128:cr=128"
        if let select { graph += ",select='eq(n,\(select))'" }
        return ["-f", "lavfi", "-i", graph, "-frames:v", select == nil ? "\(frames)" : "1"]
    }

    /// Reads the frame number from `canvas`, where the whole 320x240 picture was drawn into `rect`
    /// (upright, scaled to any size). Each block is judged by the average brightness of a small patch
    /// at its centre, so ringing at block edges and compression noise do not matter.
    static func index(in canvas: Canvas, pictureRect rect: PixelRect) -> Int {
        var index = 0
        for bit in 0..<(columns * rows) {
            let column = bit % columns, row = bit / columns
            let centreX = Double(margin.width + column * block.width) + Double(block.width) / 2
            let centreY = Double(margin.height + row * block.height) + Double(block.height) / 2
            let x = rect.x + Int(centreX / Double(pictureSize.width) * Double(rect.width))
            let y = rect.y + Int(centreY / Double(pictureSize.height) * Double(rect.height))
            if brightness(of: canvas, aroundX: x, y: y) > 128 { index |= 1 << bit }
        }
        return index
    }

    /// The frame number of a picture drawn upright over the whole canvas.
    static func index(in canvas: Canvas) -> Int {
        index(in: canvas, pictureRect: PixelRect(size: canvas.size))
    }

    /// Mean of R, G and B over a 3x3 patch.
    private static func brightness(of canvas: Canvas, aroundX x: Int, y: Int) -> Int {
        var total = 0, count = 0
        for dy in -1...1 {
            for dx in -1...1 {
                let px = min(max(x + dx, 0), canvas.size.width - 1), py = min(max(y + dy, 0), canvas.size.height - 1)
                let color = canvas[px, py]
                total += Int(color.red) + Int(color.green) + Int(color.blue)
                count += 3
            }
        }
        return total / count
    }
}

extension VideoPicture {
    /// The picture drawn whole and upright into a canvas of `size` (no bars: the shape is kept by the caller).
    func canvas(size: PixelSize = FrameIndexCodec.pictureSize, codedSize: PixelSize = FrameIndexCodec.pictureSize) throws -> Canvas {
        let canvas = Canvas(size: size)
        let placement = VideoPlacement(sourceCrop: PixelRect(size: codedSize), destination: PixelRect(size: size), rotation: .none)
        try canvas.withPixelBuffer { try draw(into: $0, placement: placement, background: .black) }
        return canvas
    }

    /// The frame number this picture shows.
    func frameIndex() throws -> Int {
        FrameIndexCodec.index(in: try canvas())
    }
}
