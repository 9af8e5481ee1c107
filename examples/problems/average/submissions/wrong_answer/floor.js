// Integer division: the sample's 2.333333333 becomes 2.
const lines = require('fs').readFileSync(0, 'utf8').trim().split('\n');
const n = Number(lines[0]);
const xs = lines[1].split(' ').map(Number);
console.log(Math.floor(xs.reduce((a, b) => a + b, 0) / n));
