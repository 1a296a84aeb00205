// The echo firmware's image, as `npm run build:firmware` (make firmware) leaves it: the page
// and the tests run exactly what would be flashed onto a board.
import hex from '../../../../build/firmware/stackscope-echo.hex?raw';

export const FIRMWARE_HEX: string = hex;
