var core = {};

// various common utilities

// seedrandom.min.js -- https://github.com/davidbau/seedrandom
// Usage: Math.seedrandom('hello.'); -- Set the seed
// Usage: Math.seedrandom(); -- Automatically set a random seed
!function(a,b){function c(c,j,k){var n=[];j=1==j?{entropy:!0}:j||{};var s=g(f(j.entropy?[c,i(a)]:null==c?h():c,3),n),t=new d(n),u=function(){for(var a=t.g(m),b=p,c=0;a<q;)a=(a+c)*l,b*=l,c=t.g(1);for(;a>=r;)a/=2,b/=2,c>>>=1;return(a+c)/b};return u.int32=function(){return 0|t.g(4)},u.quick=function(){return t.g(4)/4294967296},u.double=u,g(i(t.S),a),(j.pass||k||function(a,c,d,f){return f&&(f.S&&e(f,t),a.state=function(){return e(t,{})}),d?(b[o]=a,c):a})(u,s,"global"in j?j.global:this==b,j.state)}function d(a){var b,c=a.length,d=this,e=0,f=d.i=d.j=0,g=d.S=[];for(c||(a=[c++]);e<l;)g[e]=e++;for(e=0;e<l;e++)g[e]=g[f=s&f+a[e%c]+(b=g[e])],g[f]=b;(d.g=function(a){for(var b,c=0,e=d.i,f=d.j,g=d.S;a--;)b=g[e=s&e+1],c=c*l+g[s&(g[e]=g[f=s&f+b])+(g[f]=b)];return d.i=e,d.j=f,c})(l)}function e(a,b){return b.i=a.i,b.j=a.j,b.S=a.S.slice(),b}function f(a,b){var c,d=[],e=typeof a;if(b&&"object"==e)for(c in a)try{d.push(f(a[c],b-1))}catch(a){}return d.length?d:"string"==e?a:a+"\0"}function g(a,b){for(var c,d=a+"",e=0;e<d.length;)b[s&e]=s&(c^=19*b[s&e])+d.charCodeAt(e++);return i(b)}function h(){try{var b;return j&&(b=j.randomBytes)?b=b(l):(b=new Uint8Array(l),(k.crypto||k.msCrypto).getRandomValues(b)),i(b)}catch(b){var c=k.navigator,d=c&&c.plugins;return[+new Date,k,d,k.screen,i(a)]}}function i(a){return String.fromCharCode.apply(0,a)}var j,k=this,l=256,m=6,n=52,o="random",p=b.pow(l,m),q=b.pow(2,n),r=2*q,s=l-1;if(b["seed"+o]=c,g(b.random(),a),"object"==typeof module&&module.exports){module.exports=c;try{j=require("crypto")}catch(a){}}else"function"==typeof define&&define.amd&&define(function(){return c})}([],Math);

core.randi = function(min, max) {
  return Math.floor(Math.random()*(max-min)+min);
}

core.randf = function(min, max) {
  return Math.random()*(max-min)+min;
}

core.sample = function(lst) {
  var ix = core.randi(0,lst.length);
  return lst[ix];
}

// https://stackoverflow.com/questions/2450954/how-to-randomize-shuffle-a-javascript-array
core.shuffle = function(array) {
  var currentIndex = array.length, temporaryValue, randomIndex;

  // While there remain elements to shuffle...
  while (0 !== currentIndex) {

    // Pick a remaining element...
    randomIndex = Math.floor(Math.random() * currentIndex);
    currentIndex -= 1;

    // And swap it with the current element.
    temporaryValue = array[currentIndex];
    array[currentIndex] = array[randomIndex];
    array[randomIndex] = temporaryValue;
  }

  return array;
}

// utilities for timing episodes
var WOB_REWARD_GLOBAL = 0; // what was reward in previous iteration?
var WOB_RAW_REWARD_GLOBAL = 0; // reward without time penalty
var WOB_REWARD_REASON = null; // reason for the reward
var WOB_DONE_GLOBAL = false; // a done indicator
var WOB_EPISODE_ID = 0; // number of episodes done so far
var WOB_TASK_READY = true; // override this to show that the task is not ready yet
core.EPISODE_MAX_TIME = 10000; // in ms. Set default time to 10s.

// https://stackoverflow.com/questions/3169786/clear-text-selection-with-javascript
// this piece of code clears the selection in a new episode, if a user happened
// to select some part of text. We don't want this to persist across episodes
core.clearUserSelection = function() {
  if (window.getSelection) {
    if (window.getSelection().empty) {  // Chrome
      window.getSelection().empty();
    } else if (window.getSelection().removeAllRanges) {  // Firefox
      window.getSelection().removeAllRanges();
    }
  } else if (document.selection) {  // IE?
    document.selection.empty();
  }
}

core.EP_TIMER = null; // stores timer id
core.CD_TIMER = null; // stores timer ID for displaying rewards
core.ept0 = null; // stores system time when episode begins (so we can time it)
core.cover_div = null; // cover div for synchronization

core.startEpisode = function() {
  core.createDisplay();
  if (core.cover_div == null) {
    core.cover_div = document.createElement('div');
    core.cover_div.setAttribute('id', 'sync-task-cover');
    core.cover_div.innerHTML = 'START';
    core.cover_div.onclick = function () {
      core.startEpisodeReal();
    };
    document.body.appendChild(core.cover_div);
  }
  core.cover_div.style.display = 'block';
}

core.startEpisodeReal = function () {
  core.resetRefCode();
  genProblem();
  WOB_DONE_GLOBAL = false;
  WOB_REWARD_GLOBAL = 0;
  WOB_RAW_REWARD_GLOBAL = 0;
  WOB_REWARD_REASON = null;
  core.clearUserSelection();
  core.canvasClear();
  document.body.scrollTop = document.documentElement.scrollTop = 0;
  core.cover_div.style.display = 'none';
  core.ept0 = new Date().getTime();
  core.countdownTimer(core.EPISODE_MAX_TIME);
  // start an end of episode timer
  if(core.EP_TIMER !== null) { clearTimeout(core.EP_TIMER); } // reset timer if needed
  core.EP_TIMER = setTimeout(function(){
    core.endEpisode(-1, false, 'timed out'); // time ran out
  }, core.EPISODE_MAX_TIME);
}

core.endEpisode = function(reward, time_proportional, reason) {
  // stop timer and set to null, so that only one event gets rewarded
  // for any given episode.
  if(core.EP_TIMER !== null) {
    clearTimeout(core.EP_TIMER);
    core.EP_TIMER = null;
  } else {
    // if timer is null, don't reward anything and exit out.
    return;
  }

  WOB_RAW_REWARD_GLOBAL = reward;
  WOB_REWARD_REASON = reason;

  // adjust reward based on time, so acting early is encouraged
  var ept1 = new Date().getTime(); // get system time
  if(typeof time_proportional === 'undefined') { time_proportional = false; }
  if(time_proportional) {
    var dt = ept1 - core.ept0; // difference in ms since start of ep
    reward = reward * Math.max(0, 1.0 - dt/core.EPISODE_MAX_TIME);
  }

  WOB_REWARD_GLOBAL = reward; // add to global, to be accessed from Python
  WOB_DONE_GLOBAL = true;
  WOB_EPISODE_ID++;
  document.getElementById('episode-id').innerHTML = WOB_EPISODE_ID;
  console.log('reward: ' + WOB_REWARD_GLOBAL + ' (raw: ' + WOB_RAW_REWARD_GLOBAL + ')');
  core.updateDisplay(reward);
  core.clearTimer();

  // start a new problem with a new timer. add a slight delay so that the problem
  // isn't generated immediately, which can lead to accidental clicking.
  //setTimeout(function(){
  //  core.startEpisode();
  //}, 500);

  // With the sync screen, the timeout above is redundant
  core.startEpisode();
}

// returns parameters passed in the url.
// e.g. ?topic=123&name=query+string in the url would return
// QueryString["topic"];    // 123
// QueryString["name"];     // query string
// QueryString["nothere"];  // undefined (object)
core.QueryString = (function(a) {
  if (a == "") return {};
  var b = {};
  for (var i = 0; i < a.length; ++i)
  {
    var p=a[i].split('=', 2);
    if (p.length == 1)
      b[p[0]] = "";
    else
      b[p[0]] = decodeURIComponent(p[1].replace(/\+/g, " "));
  }
  return b;
})(window.location.search.substr(1).split('&'));

core.getOpt = function(d, k, def) {
  var v = d[k]
  return typeof v === 'undefined' ? def : v;
}

// template used to create the reward display HUD. This HTML
// gets wrapped inside a <div id='reward-display'> element.

core.DISPLAY_HTML = `
  <div class="info">
    <label>Last reward:</label>
    <span id='reward-last'>-</span>
  </div>
  <div class="info">
    <label>Last 10 average:</label>
    <span id='reward-avg'>-</span>
  </div>
  <div class="info">
    <label>Time left:</label>
    <span id='timer-countdown'>-</span>
  </div>
  <div class="info">
    <label>Episodes done:</label>
    <span id='episode-id'>0</span>
  </div>
`;

// create element via JS; appending the HTML template
// directly to the body will cause jQuery UI elements
// to freak out.
core.createDisplay = function(){
  var display = document.getElementById('reward-display');
  if(display === null) {
    // Click visualizer
    var canvas = document.createElement('canvas');
    canvas.setAttribute('id','click-canvas');
    canvas.setAttribute('width',160);
    canvas.setAttribute('height',210);
    document.body.appendChild(canvas);
    document.body.addEventListener('click', core.canvasDrawClick);
    // Reward display
    var newDiv = document.createElement('div');
    newDiv.setAttribute('id','reward-display');
    newDiv.innerHTML = core.DISPLAY_HTML;
    document.body.appendChild(newDiv);
  }
  core.reloadDisplay();
}

// reload the display, reward stats should be persistent
// across all tasks and not just within a single task.
core.reloadDisplay = function(){
  core.wob_latest = core.wob_latest || '-';
  core.wob_scores = core.wob_scores || [];

  if(core.wob_latest !== '-'){
    var latestColor = core.computeColor(core.wob_latest);
    document.getElementById('reward-last').setAttribute('style', 'color: ' + latestColor);
    document.getElementById('reward-last').innerHTML = core.wob_latest.toFixed(2);
  }

  if(core.wob_scores.length > 0){
    var avg = core.rewardAvg();
    var avgColor = core.computeColor(avg);
    document.getElementById('reward-avg').setAttribute('style', 'color: ' + avgColor);
    document.getElementById('reward-avg').innerHTML = avg.toFixed(2);
  }
}

core.updateDisplay = function(reward){
  core.wob_latest = reward;
  core.wob_scores.push(reward);
  core.wob_scores = core.wob_scores.splice(-10); // only keep the last 10 rewards.

  var avg = core.rewardAvg();
  var avgColor = core.computeColor(avg);
  var latestColor = core.computeColor(reward);

  // update text and set the appropriate colors.
  document.getElementById('reward-avg').setAttribute('style', 'color: ' + avgColor);
  document.getElementById('reward-avg').innerHTML = avg.toFixed(2);
  document.getElementById('reward-last').setAttribute('style', 'color: ' + latestColor);
  document.getElementById('reward-last').innerHTML = reward.toFixed(2);
}

// only computes for last X tasks.
core.rewardAvg = function(){
  var toCompute = core.wob_scores.slice();
  var total = toCompute.reduce(function(a,b){ return a+b; });
  return total/toCompute.length;
}

// use RGB values for setting CSS font color.
// red value should increase as number goes towards -1
// green value should increase as number goes towards +1.
core.computeColor = function(reward){
  var red = 255;
  var green = 180;
  if(reward <= 0) green = parseInt(180*(1-Math.abs(reward)));
  else red = parseInt(255*(1-reward));
  return "rgb(" + red + "," + green + ",0);"
}

core.hideDisplay = function(){
  document.getElementById('reward-display').setAttribute('style', 'display: none');
}


core.countdownTimer = function(et){
  core.clearTimer();
  var episodeTime = et/1000;
  var currentTime = et/1000;
  var intervalTime = 1000;
  // update the timer immediately to display the total episode
  // time on start, eg. "10 / 10s"
  updateTimer();
  // set an interval so that the timer text will be updated
  // based on the `intervalTime` (ie. every 1sec)
  core.CD_TIMER = setInterval(updateTimer, intervalTime);

  function updateTimer(){
    var cd = document.getElementById('timer-countdown');
    if (currentTime <= 0){
      cd.setAttribute('style', 'color: red');
      cd.innerHTML = '0 / ' + episodeTime + 's';
      window.clearInterval(core.CD_TIMER);
      return;
    } else {
      var frac = currentTime / episodeTime, col;
      if(frac > 0.75) { col = 'green'; }
      else if(frac > 0.5) { col = 'orange'; }
      else if(frac > 0.25) { col = 'brown'; }
      else { col = 'red'; }
      cd.setAttribute('style', 'color:' + col);
      cd.innerHTML = currentTime + ' / ' + episodeTime + 'sec';
      currentTime-=intervalTime/1000;
    }
  }
};

core.clearTimer = function(){
  window.clearInterval(core.CD_TIMER);
  var cd = document.getElementById('timer-countdown');
  cd.setAttribute('style', 'color: black');
  cd.innerHTML = '-';
}

// ################################
// Custom getter

core.getUtterance = function () {
  var query = document.getElementById('query');
  return query.textContent.replace(/\s+/g, ' ').trim();
}

core.previousDOMInfo = {};
core.nextRefCode = 1;
core.nextTextRefCode = -1;
core.resetRefCode = function () {
  core.nextRefCode = 1;
  core.nextTextRefCode = -1;
}

/* Returns a nested object (dict) with all visible DOM element information.

   Special handling for Text nodes:
   - Text nodes with only whitespaces are discarded.
   - If the Text node is the only child, discard that Text node
     and reassign its text to the parent Element.
   - If the Text node is not the only child, it is broken into
     pseudo-Elements with tag "t".
*/
core.getDOMInfo = function (baseElement) {
  core.previousDOMInfo = {};

  function getDOMInfoOfElement(element) {
    if (element.id === 'reward-display' ||
        element.id === 'sync-task-cover' ||
        element.id === 'click-canvas' ||
        element.id === 'query') return;
    var rect = element.getBoundingClientRect();
    if (rect.width == 0 || rect.height == 0) return;
    var answer = {
      tag: element.tagName,
      left: rect.left, top: rect.top,
      width: rect.width, height: rect.height,
      children: [],
      id: element.id,
      classes: element.className,
    };
    // Assign ref code
    if (element.dataset.wob_ref !== undefined &&
        element.dataset.wob_eps === 'e' + WOB_EPISODE_ID) {
      answer.ref = +element.dataset.wob_ref;
    } else {
      element.dataset.wob_ref = answer.ref = core.nextRefCode++;
      element.dataset.wob_eps = 'e' + WOB_EPISODE_ID;
    }
    // Record styles
    var computedStyle = window.getComputedStyle(element);
    answer.bgColor = computedStyle.backgroundColor;
    answer.fgColor = computedStyle.color;
    // Indicate if the element is being focused on
    if (document.activeElement === element) {
      answer.focused = true;
    }
    // Indicate if the element is tampered with in this episode
    if (element.dataset.tampered !== undefined &&
        element.dataset.tampered == 'e' + WOB_EPISODE_ID) {
      answer.tampered = true;
    }
    // For recording demonstrations: Record the target
    if (element.dataset.recording_target) {
      answer.recordingTarget = true;
    }
    // For <input>, also add input type and value
    if (element instanceof HTMLInputElement) {
      var inputType = element.type;
      answer.tag += '_' + inputType;
      if (inputType === 'checkbox' || inputType === 'radio') {
        answer.value = element.checked;
      } else {
        answer.value = element.value;
      }
    } else if (element instanceof HTMLTextAreaElement) {
      answer.value = element.value;
    }
    core.previousDOMInfo[answer.ref] = element;
    // Read the children
    var filteredChildNodes = [], textOnly = true;
    element.childNodes.forEach(function (child) {
      if (child instanceof Text) {
        if (!/^\s*$/.test(child.data)) {
          filteredChildNodes.push(child);
        }
      } else if (child instanceof Element) {
        filteredChildNodes.push(child);
        textOnly = false;
      }
    });
    if (textOnly) {
      answer.text = filteredChildNodes.map(function (x) {
        return x.data.trim();
      }).join(' ');
    } else {
      filteredChildNodes.forEach(function (child) {
        if (child instanceof Text) {
          addDOMInfosOfTextNode(child, answer.children);
        } else {
          child = getDOMInfoOfElement(child);
          if (child !== undefined)
            answer.children.push(child);
        }
      });
    }
    return answer;
  }

  function addDOMInfosOfTextNode(textNode, collection) {
    // Break the text node into multiple nodes
    // Each node only occupies a single rectangle boundary
    var range = document.createRange();
    range.selectNodeContents(textNode);
    var absolute_start = range.startOffset, absolute_end = range.endOffset;
    var start = absolute_start;
    var itr = 0;
    while (start < absolute_end) {
      // Binary search on the next end point
      var end_lower_bound = start + 1,
          end_upper_bound = absolute_end,
          l = range.getClientRects().length,
          end = Math.floor((end_lower_bound * (l-1) + end_upper_bound) / l);
      while (end_lower_bound <= end_upper_bound) {
        range.setEnd(textNode, end);
        if (range.getClientRects().length == 1) {
          end_lower_bound = end + 1;
          end = Math.min(end_lower_bound + 5, Math.floor((end_lower_bound + end_upper_bound) / 2));
        } else {
          end_upper_bound = end - 1;
          end = Math.max(end_upper_bound - 5, Math.floor((end_lower_bound + end_upper_bound) / 2));
        }
        if (itr++ > 1000) throwTextNodeError('Text node computation stuck in an infinite loop');
      }
      range.setEnd(textNode, end);
      var rects = range.getClientRects();
      if (rects.length !== 1) throwTextNodeError('Text node computation incorrect');
      var rect = rects[0], text = textNode.data.substring(start, end).trim();
      if (rect.width > 0 && rect.height > 0 && text) {
        var answer = {
          tag: "t",
          left: rect.left, top: rect.top,
          width: rect.width, height: rect.height,
          ref: core.nextTextRefCode--,
          children: [],
          text: text,
        };
        collection.push(answer);
      }
      start = end;
      range.setEnd(textNode, absolute_end);
      range.setStart(textNode, start);
      if (itr++ > 1000) throwTextNodeError('Text node computation stuck in an infinite loop');
    }
  }

  function throwTextNodeError(message) {
    alert(message);
    throw message;
  }

  return getDOMInfoOfElement(baseElement || document.body);
}

 
/* Debug: return a mapping from ref to its DOMInfo */
core.flattenDOMInfo = function (rootDomInfo, flattened) {
  if (flattened == undefined) flattened = {};
  flattened[rootDomInfo.ref] = rootDomInfo;
  rootDomInfo.children.forEach(function (x) { core.flattenDOMInfo(x, flattened); });
  return flattened;
}


/* Click on an element regardless of its location or visibility.

   Args:
     ref: The ref value generated by the previous call to getDOMInfo
*/
core.elementClick = function (ref) {
  try {
    var element = core.previousDOMInfo[ref];
    core.canvasDrawElementClick(element);
    if (element instanceof SVGElement) {
      // SVG needs special treatment
      var event = new Event('mousedown');
      element.dispatchEvent(event);
      var event = new Event('mouseup');
      element.dispatchEvent(event);
      var event = new Event('click');
      element.dispatchEvent(event);
    } else {
      element.click();
      element.focus();
    }
    return true;
  } catch (err) {
    return err.message;
  }
}

// ################################
// Mouse click tracker

/* Helper: Prepare canvas for the next drawing step.
   Return true if the canvas is ready.
*/
core.prepareCanvas = function () {
  if (core.clickTrackCtx === undefined)
    core.clickTrackCtx = document.getElementById('click-canvas').getContext('2d');
  // Blur out the old content
  var ctx = core.clickTrackCtx;
  ctx.globalCompositeOperation = "screen";
  ctx.fillStyle = "hsl(0, 0, 80)";
  ctx.fillRect(0,0,160,210);
  ctx.globalCompositeOperation = "source-over";  // restore default comp
  return true;
}

core.canvasDrawClick = function (event) {
  // Don't visualize the click on the sync cover
  if (event.target === core.cover_div) return;
  // Note that the element is clicked
  event.target.dataset.tampered = 'e' + WOB_EPISODE_ID;
  // Don't visualize elementClick or clicks outside the bound
  if (!event.isTrusted || event.pageX > 160 || event.pageY > 210) return;
  // Draw!
  if (!core.prepareCanvas()) return;
  var ctx = core.clickTrackCtx;
  ctx.beginPath();
  ctx.arc(event.pageX, event.pageY, 5, 0,2*Math.PI);
  ctx.fillStyle = "rgba(100, 100, 255, 0.8)";
  ctx.fill();
}

core.canvasDrawElementClick = function (element) {
  if (!core.prepareCanvas()) return;
  var rect = element.getBoundingClientRect()
  var ctx = core.clickTrackCtx;
  ctx.fillStyle = "rgba(100, 100, 255, 0.8)";
  ctx.fillRect(rect.left, rect.top, rect.width, rect.height); 
}

core.canvasClear = function () {
  if (core.clickTrackCtx === undefined)
    core.clickTrackCtx = document.getElementById('click-canvas').getContext('2d');
  var ctx = core.clickTrackCtx;
  ctx.fillStyle = "white";
  ctx.fillRect(0,0,160,210);
}

// ################################
// Attention visualization

// Coordinates (may be changed in the future)
var ROW_TO_Y = [54, 62, 70, 78, 86, 94, 102, 110, 118, 126, 134, 142, 150, 158, 166, 174, 182, 190, 198, 206];
var COL_TO_X = [4, 12, 20, 28, 36, 44, 52, 60, 68, 76, 84, 92, 100, 108, 116, 124, 132, 140, 148, 156];

/* Visualize the attention.

   Args:
     values: 2d array of shape (num_grid_rows, num_grid_cols)
*/
core.visualizeAttention = function (values) {
  if (core.attentionCtx === undefined) {
    var canvas = document.createElement('canvas');
    canvas.setAttribute('id','attention-canvas');
    canvas.setAttribute('width',160);
    canvas.setAttribute('height',210);
    document.body.appendChild(canvas);
    core.attentionCtx = canvas.getContext('2d');
  }
  var ctx = core.attentionCtx;
  ctx.clearRect(0,0,160,210);
  values.forEach(function (row, i) {
    var y = ROW_TO_Y[i];
    row.forEach(function (cell, j) {
      var x = COL_TO_X[j];
      ctx.fillStyle = "hsl(0,0%," + (cell * 100) + "%)";
      ctx.fillRect(x-3,y-3,6,6);
    });
  });
}

// ################################
// Train-test split

// genProblem can read this variable when generating a problem
var WOB_DATA_MODE = 'default'; // dataset distribution to sample the problem from

core.setDataMode = function (mode) {
  WOB_DATA_MODE = mode;
}

// Can also set the mode with "?mode=..." in the URL
if (core.QueryString.mode) {
  core.setDataMode(core.QueryString.mode);
}

// ################################
// Record demonstrations (import core/record.js)

core.addRecordScript = function () {
  // record script
  var script = document.createElement('script');
  script.type = 'text/javascript';
  script.src = '../core/record.js';
  document.head.appendChild(script);
}

// Enable demonstration recording with "?record=..." in the URL
if (core.QueryString.record) {
  core.addRecordScript();
}

// cdpagent tests (the one change to this file): with ?seed=S in the url the first episode
// starts at once, Math.random seeded with S, instead of waiting for a click on the START
// cover (as MiniWoB's own Python runner does with Math.seedrandom and startEpisodeReal);
// ?max_time=MS sets its time limit. Later episodes start from the cover as before.
if (core.QueryString.seed !== undefined) {
  core.startEpisodeWithCover = core.startEpisode;
  core.startEpisode = function () {
    core.startEpisode = core.startEpisodeWithCover;
    core.startEpisode();
    if (core.QueryString.max_time) { core.EPISODE_MAX_TIME = +core.QueryString.max_time; }
    Math.seedrandom(core.QueryString.seed);
    core.startEpisodeReal();
  };
}
