// Under `trunk serve` only (the build program adds it when Trunk runs it): reloads the page once
// Trunk has rebuilt it, as Trunk's own script would in the HTML it writes, which the program
// replaces. Trunk says so on its socket; a socket that closes (the server restarting) reloads the
// page once it answers again.
const address = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/.well-known/trunk/ws`;
const listen = (socket) => {
  socket.onmessage = (e) => { if (JSON.parse(e.data).type === 'reload') location.reload(); };
  socket.onclose = () => setTimeout(() => {
    const again = new WebSocket(address);
    again.onopen = () => location.reload();
    again.onclose = socket.onclose;
  }, 1000);
};
listen(new WebSocket(address));
